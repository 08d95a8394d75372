// PLACEHOLDER (issue 15, in progress): replaced by createGitModule (spec 02 §4.4, spec 04 §2.6).
export {};
