// sleep lives in src/time/sleep.ts: waiting is no concern of the engine's alone. Three files of
// src/ha/ still import it from here while that folder is being reshaped on another branch; once
// it has merged they import time/sleep.js, and this file goes.
export { sleep } from "../time/sleep.js";
