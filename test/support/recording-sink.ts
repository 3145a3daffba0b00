import type { ApiEvent, Today } from "../../src/api/schemas.js";
import { type ChildRef, type EngineStatus, NotDeliveredError, type Sink } from "../../src/engine/sink.js";

/** A sink that keeps everything the engine hands it, for assertions. Not a stand-in for HA. */
export class RecordingSink implements Sink {
  readonly events: Array<{ childId: string; event: ApiEvent; at: number }> = [];
  readonly todays: Array<{ childId: string; today: Today; at: number }> = [];
  readonly statuses: EngineStatus[] = [];
  readonly unavailable: Array<{ childId: string; reason: string; at: number }> = [];
  children: readonly ChildRef[] = [];
  #ready = true;
  #waiters: Array<() => void> = [];

  /** While not ready, the engine must hold and deliver nothing. */
  setReady(ready: boolean): void {
    this.#ready = ready;
    if (ready) for (const resolve of this.#waiters.splice(0)) resolve();
  }

  whenReady(signal: AbortSignal): Promise<void> {
    if (this.#ready) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push(resolve);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  }

  async setChildren(children: readonly ChildRef[]): Promise<void> {
    this.children = children;
  }

  async publishToday(child: ChildRef, today: Today): Promise<void> {
    this.todays.push({ childId: child.id, today, at: Date.now() });
  }

  publishEvent(child: ChildRef, event: ApiEvent): Promise<void> {
    if (!this.#ready) return Promise.reject(new NotDeliveredError("sink not ready"));
    this.events.push({ childId: child.id, event, at: Date.now() });
    return Promise.resolve();
  }

  async publishStatus(status: EngineStatus): Promise<void> {
    this.statuses.push(status);
  }

  async markUnavailable(child: ChildRef, reason: string): Promise<void> {
    this.unavailable.push({ childId: child.id, reason, at: Date.now() });
  }

  eventIdsOf(childId: string): string[] {
    return this.events.filter((e) => e.childId === childId).map((e) => e.event.id);
  }

  lastStatus(): EngineStatus | undefined {
    return this.statuses.at(-1);
  }
}
