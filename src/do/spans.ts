/**
 * Observer spans at the stub boundary (spec 01 §5.4, spec 04 §4): the span
 * helpers live in the core (`../observer.ts`, which the runtime uses too);
 * the RPC stubs import them from here.
 *
 * @module
 */
export { clipAttribute, MAX_ERROR_MESSAGE_CHARS, sanitizeErrorMessage, withSpan } from "../observer.js";
