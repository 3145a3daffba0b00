import type { TokenLabel } from "./auth.js";
import type { FaultKind } from "./faults.js";
import type { BaseName } from "./routing.js";

/** One request as the simulator served it. Tokens are named by label, never by their text. */
export interface ServedRequest {
  /** Simulated instant of arrival (the simulator's clock). */
  at: number;
  token: TokenLabel;
  base: BaseName | undefined;
  method: string;
  /** Path relative to the base, query included as received. */
  path: string;
  status: number;
  fault?: FaultKind;
  /** Bytes of the body handed to the connection so far, for a fault that streams one (trickle, huge). */
  bodyBytes?: number;
  /** The User-Agent header, when the request carried one (tells clients sharing a token apart). */
  userAgent?: string;
}
