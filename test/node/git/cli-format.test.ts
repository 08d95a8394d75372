import { describe, expect, it } from "vitest";
import {
  collapseUntracked,
  formatCommit,
  formatDate,
  formatLog,
  formatStatusLong,
  formatStatusPorcelainV1,
  formatStatusPorcelainV2,
  formatStatusShort,
  parsePretty,
  quotePath,
  relativeTo,
  splitMessage,
} from "../../../src/git/cli/format.js";
import type { CommitView } from "../../../src/git/types.js";

const person = { name: "A", email: "a@x", timestamp: 1704157445, timezoneOffset: -120 };
const root: CommitView = {
  oid: "863e5635d2587e3847b0cba6b09af964053d4f61",
  message: "first line\nsecond\n\nbody para\n",
  tree: "0123456789abcdef0123456789abcdef01234567",
  parent: [],
  author: person,
  committer: { ...person, name: "C", email: "c@x", timestamp: 1704157446, timezoneOffset: 300 },
};
const merge: CommitView = { ...root, oid: "aaaaaaa1111111111111111111111111111111111", message: "merge\n", parent: ["1111111aaaa", "2222222bbbb"] };

describe("dates", () => {
  it("prints YYYY-MM-DD HH:MM:SS ±HHMM in the person's zone", () => {
    expect(formatDate(person)).toBe("2024-01-02 03:04:05 +0200");
    expect(formatDate({ timestamp: 1704157446, timezoneOffset: 300 })).toBe("2024-01-01 20:04:06 -0500");
    expect(formatDate({ timestamp: 0, timezoneOffset: 0 })).toBe("1970-01-01 00:00:00 +0000");
    expect(formatDate({ timestamp: 0, timezoneOffset: -330 })).toBe("1970-01-01 05:30:00 +0530");
  });
});

describe("log formats", () => {
  it("splits subject and body as git does", () => {
    expect(splitMessage(root.message)).toEqual({ subject: "first line second", body: "body para\n" });
    expect(splitMessage("one\n")).toEqual({ subject: "one", body: "" });
  });

  it("expands placeholders (output of real git 2.39 for the same commit)", () => {
    // git log --format='%s|%b|%%' → "first line second|body para\n|%"
    expect(formatCommit(root, "%s|%b|%%")).toBe("first line second|body para\n|%");
    expect(formatCommit(root, "%H %h %an <%ae> %ad / %cn <%ce> %cd")).toBe(
      "863e5635d2587e3847b0cba6b09af964053d4f61 863e563 A <a@x> 2024-01-02 03:04:05 +0200 / C <c@x> 2024-01-01 20:04:06 -0500",
    );
    expect(formatCommit(root, "%x %P|%n")).toBe("%x |\n");
  });

  it("medium blocks are real git's (git log --date=iso)", () => {
    expect(formatLog([root], { kind: "medium" })).toBe(
      "commit 863e5635d2587e3847b0cba6b09af964053d4f61\n" +
        "Author: A <a@x>\n" +
        "Date:   2024-01-02 03:04:05 +0200\n\n" +
        "    first line\n    second\n    \n    body para\n",
    );
    expect(formatLog([merge, root], { kind: "medium" })).toContain("Merge: 1111111 2222222\nAuthor: A <a@x>\n");
    expect(formatLog([merge, root], { kind: "medium" })).toContain("    merge\n\ncommit 863e5635");
  });

  it("oneline, format: (separator) and tformat: (terminator)", () => {
    expect(formatLog([merge, root], { kind: "oneline" })).toBe("aaaaaaa merge\n863e563 first line second\n");
    expect(formatLog([merge, root], { kind: "format", format: "%h" })).toBe("aaaaaaa\n863e563");
    expect(formatLog([merge, root], { kind: "tformat", format: "%h" })).toBe("aaaaaaa\n863e563\n");
    expect(parsePretty("format:%H")).toEqual({ kind: "format", format: "%H" });
    expect(parsePretty("%H")).toEqual({ kind: "tformat", format: "%H" });
    expect(parsePretty("oneline")).toEqual({ kind: "tformat", format: "%H %s" });
    expect(parsePretty("fuller")).toBeUndefined();
  });
});

describe("status formats", () => {
  const entries = [
    { path: "n", index: "A", worktree: " " },
    { path: "d/", index: " ", worktree: "?" },
    { path: "a", index: "M", worktree: "M" },
    { path: "gone", index: " ", worktree: "D" },
  ];

  it("-s, --porcelain=v1 and --porcelain(=v2) lines, tracked first then untracked", () => {
    expect(formatStatusShort(entries)).toBe("MM a\n D gone\nA  n\n ? d/\n");
    expect(formatStatusPorcelainV1(entries)).toBe("MM a\n D gone\nA  n\n?? d/\n");
    expect(formatStatusPorcelainV2(entries)).toBe("1 MM a\n1 .D gone\n1 A. n\n? d/\n");
  });

  it("long format is real git 2.39's", () => {
    expect(formatStatusLong({ branch: "main", noCommits: false }, entries)).toBe(
      "On branch main\n" +
        "Changes to be committed:\n" +
        '  (use "git restore --staged <file>..." to unstage)\n' +
        "\tmodified:   a\n" +
        "\tnew file:   n\n" +
        "\n" +
        "Changes not staged for commit:\n" +
        '  (use "git add/rm <file>..." to update what will be committed)\n' +
        '  (use "git restore <file>..." to discard changes in working directory)\n' +
        "\tmodified:   a\n" +
        "\tdeleted:    gone\n" +
        "\n" +
        "Untracked files:\n" +
        '  (use "git add <file>..." to include in what will be committed)\n' +
        "\td/\n" +
        "\n",
    );
    expect(formatStatusLong({ branch: "main", noCommits: true }, [])).toBe(
      'On branch main\n\nNo commits yet\n\nnothing to commit (create/copy files and use "git add" to track)\n',
    );
    expect(formatStatusLong({ branch: "main", noCommits: false }, [])).toBe("On branch main\nnothing to commit, working tree clean\n");
    expect(formatStatusLong({ branch: undefined, detachedAt: "abcdef0", noCommits: false }, [{ path: "x", index: " ", worktree: "?" }])).toBe(
      "HEAD detached at abcdef0\nUntracked files:\n" +
        '  (use "git add <file>..." to include in what will be committed)\n' +
        '\tx\n\nnothing added to commit but untracked files present (use "git add" to track)\n',
    );
  });

  it("collapses wholly untracked directories", () => {
    const raw = [
      { path: "d/x", index: " ", worktree: "?" },
      { path: "d/y/z", index: " ", worktree: "?" },
      { path: "t/new", index: " ", worktree: "?" },
      { path: "t/u/v", index: " ", worktree: "?" },
      { path: "t/old", index: "M", worktree: " " },
    ];
    expect(collapseUntracked(raw, ["t/old"]).map((e) => e.path)).toEqual(["d/", "t/new", "t/u/", "t/old"]);
  });

  it("quotes paths and makes them relative to the cwd", () => {
    expect(quotePath("plain name.txt")).toBe("plain name.txt");
    expect(quotePath("héllo")).toBe('"h\\303\\251llo"');
    expect(quotePath('a"b\tc')).toBe('"a\\"b\\tc"');
    expect(relativeTo("a", "sub")).toBe("../a");
    expect(relativeTo("sub/x", "sub")).toBe("x");
    expect(relativeTo("d/", "sub/deep")).toBe("../../d/");
    expect(relativeTo("a/b", "")).toBe("a/b");
  });
});

describe("tracking lines of the long status (real git 2.39 wording)", () => {
  it("up to date, ahead, behind, diverged, gone", async () => {
    const { upstreamLines } = await import("../../../src/git/cli/commands.js");
    const u = { name: "origin/main", gone: false, ahead: 0, behind: 0 };
    expect(upstreamLines(u)).toBe("Your branch is up to date with 'origin/main'.");
    expect(upstreamLines({ ...u, ahead: 1 })).toBe("Your branch is ahead of 'origin/main' by 1 commit.\n  (use \"git push\" to publish your local commits)");
    expect(upstreamLines({ ...u, behind: 2 })).toBe(
      "Your branch is behind 'origin/main' by 2 commits, and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)",
    );
    expect(upstreamLines({ ...u, ahead: 1, behind: 1 })).toBe(
      "Your branch and 'origin/main' have diverged,\nand have 1 and 1 different commits each, respectively.\n  (use \"git pull\" to merge the remote branch into yours)",
    );
    expect(upstreamLines({ ...u, gone: true })).toBe(
      "Your branch is based on 'origin/main', but the upstream is gone.\n  (use \"git branch --unset-upstream\" to fixup)",
    );
  });
});
