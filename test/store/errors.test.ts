import { describe, expect, it } from "vitest";
import { osErrorCode, StoreOpenError, StoreWriteError } from "../../src/store/errors.js";

// A store error tells a person which file and, when the OS gave one, which code: never more (the
// store holds no secret, and its messages are logged as they are).

describe("the store's errors", () => {
  it("name the file, and the OS code only when there is one", () => {
    expect(new StoreOpenError("cannot read the store file", "/data/s.json", "EACCES").message).toBe(
      "cannot read the store file: /data/s.json (EACCES)",
    );
    const plain = new StoreWriteError("cannot append to the log", "/data/l.jsonl", undefined);
    expect(plain.message).toBe("cannot append to the log: /data/l.jsonl");
    expect(plain).toMatchObject({ name: "StoreWriteError", kind: "write", code: undefined });
  });

  it("take the code of a system error only", () => {
    const system = Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
    expect(osErrorCode(system)).toBe("ENOSPC");
    expect(osErrorCode(new Error("a bug"))).toBeUndefined();
    expect(osErrorCode({ code: 28 })).toBeUndefined();
    expect(osErrorCode("ENOSPC")).toBeUndefined();
    expect(osErrorCode(null)).toBeUndefined();
  });
});
