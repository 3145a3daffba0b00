import type { z } from "zod";

/** A zod error as short `path: message` lines (the path is what a log reader needs). */
export function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return `${path || "(root)"}: ${issue.message}`;
  });
}
