import { describe, expect, it } from "vitest";
import { sh, shellQuote } from "../../src/index.js";

describe("shellQuote", () => {
  it("keeps safe words and single-quotes everything else", () => {
    expect(shellQuote("src/a-b_c+d=e:f,g.h@i%j")).toBe("src/a-b_c+d=e:f,g.h@i%j");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("$HOME;rm -rf /")).toBe("'$HOME;rm -rf /'");
    expect(shellQuote("*.ts")).toBe("'*.ts'");
  });
  it("rejects non-strings with a TypeError", () => {
    expect(() => shellQuote(1 as unknown as string)).toThrow(TypeError);
  });
});

describe("sh", () => {
  it("quotes strings, numbers and arrays, keeps raw values and literals", () => {
    const pattern = "a b";
    expect(sh`grep -rn ${pattern} ${["src", "my lib"]} | head -n ${5} ${{ raw: "*.ts" }}`).toBe(
      "grep -rn 'a b' src 'my lib' | head -n 5 *.ts",
    );
    expect(sh`printf 'x\n'`).toBe("printf 'x\\n'");
  });
  it("refuses values it cannot quote", () => {
    expect(() => sh`echo ${null as unknown as string}`).toThrow(/cannot splice a null/);
    expect(() => sh`echo ${{} as unknown as string}`).toThrow(TypeError);
  });
});
