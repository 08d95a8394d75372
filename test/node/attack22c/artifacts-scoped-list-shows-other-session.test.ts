/**
 * Issue 20, twenty-second attack run: a session-scoped artifacts client lists another session's repositories.
 *
 * Session ids and names may end in `_` (`^[A-Za-z0-9][A-Za-z0-9._-]*$`, no `__`). Session `chat_` stores its
 * repository `notes` as `chat___notes` (`chat_` + `__` + `notes`). A client of session `chat` lists with
 * `localName` (src/artifacts/names.ts): the prefix `chat__` matches, the rest `_notes` is non-empty and holds no `__`,
 * so `list()` — and `artifacts repo list` — show session `chat_`'s repository to session `chat` as `_notes`, with its
 * id, description and times. A name the session could never create or open (`_notes` fails the name pattern:
 * `repo get _notes` is EINVALIDNAME), so the listing is both a leak and a lie.
 *
 * Tried: two scoped clients (`chat`, `chat_`) on one stand-in binding (test/shared/artifacts-standin.ts, the
 * platform's list/create semantics), each creating a repository, then `list()` and the CLI's `repo list` of `chat`.
 * Held: `chat-4__x` and `chat__a__b` stay out of `chat`'s list (docs/artifacts.md); `chat_`'s own list shows only
 * `notes`; `get("_notes")` is refused before the binding is called.
 *
 * Found (low-medium; 2 of 2 runs): `createArtifact(b, "chat").list()` names ["_notes", "mine"] — `_notes` is session
 * `chat_`'s `notes` (description "secret plans of chat_"); `artifacts repo list` prints it too.
 *
 * Suggested fix: in `localName`, keep a scoped stored name only when its rest is a valid local name
 * (`ARTIFACT_NAME_PATTERN` — so it starts with a letter or digit — and no `__`), i.e. exactly the names
 * `storedName(rest, session)` could have produced.
 *
 * Fixed: `localName` (src/artifacts/names.ts) keeps a scoped stored name only when its rest matches
 * `ARTIFACT_NAME_PATTERN` and holds no `__` — the names `storedName` produces — so `list()`, `artifacts repo list`
 * and the binding-echo names (`#echoName`) of session `chat` leave `chat___notes` out. get/delete/fork/token calls
 * already went through `storedName`, which refuses `_notes` (EINVALIDNAME) before the binding is called.
 */
import { describe, expect, it } from "vitest";
import { createArtifact } from "../../../src/artifacts/index.js";
import { ArtifactsStandIn } from "../../shared/artifacts-standin.js";

const NOW = Date.parse("2026-01-01T00:00:00.000Z");

describe("attack22c: a scoped artifacts list", () => {
  it("shows only names this session stored (not session chat_'s repositories)", async () => {
    const binding = new ArtifactsStandIn({ now: () => NOW });
    const other = createArtifact(binding, "chat_");
    const mine = createArtifact(binding, "chat");
    await other.create("notes", { description: "secret plans of chat_" });
    await mine.create("mine");
    // The other session sees its own only.
    expect((await other.list()).map((r) => r.name)).toEqual(["notes"]);
    // A name `_notes` can never be used by this session.
    await expect(mine.get("_notes")).rejects.toMatchObject({ code: "EINVALIDNAME" });

    const listed = await mine.list();
    const cli = await mine.cli({ argv: ["repo", "list"] });
    expect(cli.exitCode).toBe(0);
    const cliNames = (JSON.parse(cli.stdout) as { name: string; description?: string }[]).map((r) => r.name);
    // Found: ["_notes", "mine"] from both, `_notes` carrying "secret plans of chat_".
    expect({ api: listed.map((r) => r.name).sort(), cli: cliNames.sort() }).toEqual({ api: ["mine"], cli: ["mine"] });
  });
});

describe("fix22: localName keeps only names storedName can produce", () => {
  it("maps stored names back to exactly the local names of this session", async () => {
    const { localName, storedName } = await import("../../../src/artifacts/names.js");
    expect(localName("chat__notes", "chat")).toBe("notes");
    expect(localName(storedName("a.b-c_d", "chat"), "chat")).toBe("a.b-c_d");
    for (const stored of ["chat___notes", "chat__-x", "chat__.x", "chat__", "chat__a__b", "chat-4__x", "chat__a b", "chat__é"]) {
      expect([stored, localName(stored, "chat")]).toEqual([stored, undefined]);
    }
    // Unscoped: every stored name as it is.
    expect(localName("chat___notes", undefined)).toBe("chat___notes");
  });
});
