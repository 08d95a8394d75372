/**
 * Issue 20, run 32, fixer GC — src/git/url.ts against git 2.39.5's transport_anonymize_url (transport.c) and the URL
 * fetch prints in `From` / records for a merge message (store_updated_refs: no trailing `/`, no `.git`).
 */
import { expect, it } from "vitest";
import { anonymizeUrl, displayFetchUrl } from "../../../src/git/url.js";

it("drops the userinfo as git's transport_anonymize_url", () => {
  expect(anonymizeUrl("http://user:s3cret@127.0.0.1:8080/git/r.git")).toBe("http://127.0.0.1:8080/git/r.git");
  expect(anonymizeUrl("https://x-access-token:ghp_abc@github.com/o/r")).toBe("https://github.com/o/r");
  expect(anonymizeUrl("https://token@github.com/o/r.git")).toBe("https://github.com/o/r.git");
  expect(anonymizeUrl("https://github.com/o/r.git")).toBe("https://github.com/o/r.git");
  expect(anonymizeUrl("https://github.com/o/r@v1.git")).toBe("https://github.com/o/r@v1.git"); // `@` past the first slash
  expect(anonymizeUrl("git@github.com:o/r.git")).toBe("github.com:o/r.git"); // scp-like
  expect(anonymizeUrl("/srv/me@host/r.git")).toBe("/srv/me@host/r.git"); // a local path
  expect(anonymizeUrl("me@host")).toBe("me@host"); // no `:` after the `@`: not scp-like
  expect(anonymizeUrl("we ird://u:p@h/r")).toBe("we ird://u:p@h/r"); // not a scheme
});

it("From / merge-message form: anonymized, no trailing slash, no .git", () => {
  expect(displayFetchUrl("http://u:p@h/git/r.git")).toBe("http://h/git/r");
  expect(displayFetchUrl("http://h/git/r.git/")).toBe("http://h/git/r");
  expect(displayFetchUrl("http://h/git/r/")).toBe("http://h/git/r");
  expect(displayFetchUrl("http://h/r")).toBe("http://h/r");
});
