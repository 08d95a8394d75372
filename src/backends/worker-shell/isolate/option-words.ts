/**
 * Option words of external commands as GNU getopt_long reads them (issue 20, run 28, fixer OP), for just-bash
 * commands whose own parsers know only some of the forms: before a command's parser runs, its arguments are
 * rewritten into forms that parser reads —
 * - a cluster of short options is split as getopt splits it: each letter a flag until one that takes an argument,
 *   which takes the rest of the cluster or the next word (`sort -nk2` is `-n -k 2`, `grep -nA1` is `-n -A 1`,
 *   `cut -sd, -f2` is `-s -d , -f 2`); grep's `-NUM` digits stay together (`-n15` is `-n -15`);
 * - a long option that requires an argument takes the next word when it has no `=` (`grep --include '*.ts'` is
 *   `--include=*.ts`, `cut --delimiter ,` is `-d ,`);
 * - options that change only how GNU works, not what it prints, are dropped (`sort -S 50%`, `--parallel=4`);
 * - `--` ends the options; a lone `-` is an operand.
 */

interface Spec {
  /** Short option letters that take an argument. */
  readonly short: string;
  /** Long options that require an argument → the form the command's parser reads: "=" (`--name=VALUE`) or a short option (`-d`). */
  readonly long: Readonly<Record<string, string>>;
  /** Short (letter) and long options, each taking an argument, dropped with it. */
  readonly drop?: readonly string[];
  /** `-NUM` (grep's context) keeps its digits together. */
  readonly digits?: boolean;
}

const SPECS: Readonly<Record<string, Spec>> = {
  sort: {
    short: "ktoST",
    long: { "--key": "=", "--field-separator": "=", "--output": "=" },
    drop: ["S", "T", "--buffer-size", "--temporary-directory", "--parallel", "--batch-size", "--compress-program"],
  },
  grep: {
    short: "efmABC",
    long: {
      "--regexp": "=",
      "--file": "=",
      "--include": "=",
      "--exclude": "=",
      "--exclude-dir": "=",
      "--exclude-from": "=",
      "--max-count": "=",
      "--after-context": "=",
      "--before-context": "=",
      "--context": "=",
      "--label": "=",
      "--binary-files": "=",
      "--devices": "=",
      "--directories": "=",
      "--group-separator": "=",
    },
    digits: true,
  },
  cut: {
    short: "dfcb",
    long: { "--delimiter": "-d", "--fields": "-f", "--characters": "-c" },
  },
};

/** `args` of command `command` with its options in the forms just-bash's parser reads (see the module comment). */
export function words(command: string, args: readonly string[]): string[] {
  const spec = SPECS[command];
  if (spec === undefined) return [...args];
  const drop = new Set(spec.drop ?? []);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      const name = eq < 0 ? word : word.slice(0, eq);
      const form = spec.long[name];
      const dropped = drop.has(name);
      if (form === undefined && !dropped) {
        out.push(word);
        continue;
      }
      let value: string;
      if (eq >= 0) value = word.slice(eq + 1);
      else if (i + 1 < args.length) value = args[++i] as string;
      else {
        out.push(word);
        continue;
      }
      if (dropped) continue;
      if (form === "=") out.push(`${name}=${value}`);
      else out.push(form as string, value);
      continue;
    }
    if (!word.startsWith("-") || word.length < 2) {
      out.push(word);
      continue;
    }
    // A cluster `-abc…`.
    for (let j = 1; j < word.length; j++) {
      const letter = word[j] as string;
      if (spec.digits && /[0-9]/.test(letter)) {
        let k = j;
        while (k < word.length && /[0-9]/.test(word[k] as string)) k++;
        out.push(`-${word.slice(j, k)}`);
        j = k - 1;
        continue;
      }
      if (spec.short.includes(letter)) {
        const rest = word.slice(j + 1);
        let value: string | undefined = rest;
        if (rest === "") value = i + 1 < args.length ? (args[++i] as string) : undefined;
        if (!drop.has(letter)) out.push(`-${letter}`, ...(value === undefined ? [] : [value]));
        break;
      }
      out.push(`-${letter}`);
    }
  }
  return out;
}

/** GNU's refusal of option `word` of `command` (getopt's words, then `usage` if given and `Try '… --help'`), status 2. */
export function refuse(command: string, word: string, usage?: string): { stdout: string; stderr: string; exitCode: number } {
  const what = word.startsWith("--") ? `unrecognized option '${word}'` : `invalid option -- '${word.replace(/^-/, "")}'`;
  return { stdout: "", stderr: `${command}: ${what}\n${usage === undefined ? "" : `Usage: ${command} ${usage}\n`}Try '${command} --help' for more information.\n`, exitCode: 2 };
}
