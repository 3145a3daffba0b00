// Turns "memory changed, make it durable" requests into whole-file writes that never overlap and
// that merge: every request made while a write is running is served by one following write, which
// snapshots memory when it starts and so carries all of them.

interface Batch {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export class CoalescingWriter {
  readonly #snapshot: () => string;
  readonly #write: (data: string) => Promise<void>;
  /** Requests no write has picked up yet. */
  #queued: Batch | undefined;
  /** Requests served by the write now running. */
  #inFlight: Batch | undefined;
  #running = false;
  /** The last write failed: memory holds changes the file lacks. */
  #unsaved = false;

  /**
   * @param snapshot serializes the current memory; called once per write, when the write starts
   * @param write makes that text durable; may throw, which rejects the requests it was serving
   */
  constructor(snapshot: () => string, write: (data: string) => Promise<void>) {
    this.#snapshot = snapshot;
    this.#write = write;
  }

  /** Call after changing memory. Resolves once a write that started after this call has finished. */
  requestWrite(): Promise<void> {
    this.#queued ??= newBatch();
    const { promise } = this.#queued;
    if (!this.#running) {
      this.#running = true;
      void this.#drain();
    }
    return promise;
  }

  /**
   * Resolves once everything requested so far is durable; rejects if the write meant to make it so
   * failed. When the last write failed and nothing is pending, writes again: memory is ahead of disk.
   */
  flush(): Promise<void> {
    const pending = this.#queued?.promise ?? this.#inFlight?.promise;
    if (pending) return pending;
    return this.#unsaved ? this.requestWrite() : Promise.resolve();
  }

  async #drain(): Promise<void> {
    // Let the other changes made in this turn of the event loop join the first write.
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (let batch = this.#queued; batch !== undefined; batch = this.#queued) {
      this.#queued = undefined;
      this.#inFlight = batch;
      try {
        await this.#write(this.#snapshot());
        this.#unsaved = false;
        batch.resolve();
      } catch (error) {
        this.#unsaved = true;
        batch.reject(error);
      }
    }
    this.#inFlight = undefined;
    this.#running = false;
  }
}
