import type * as z from "../zod.js";

/** A zod error as short `path: message` lines (the path is what a log reader needs). */
export function issuesOf(error: z.core.$ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return `${path || "(root)"}: ${issue.message}`;
  });
}
