// The main job (issue 5) is not built yet: it will start local workerd with the
// ai-sdk-agent example and run an agent on a real project.
console.log("agent-computer: `npm start` is not implemented yet (see the main-job issue).");
