// What the engine needs from storage; src/store provides the durable implementations.

/** One cursor per child, durable once `set` resolves. */
export interface CursorStore {
  get(childId: string): Promise<string | undefined>;
  set(childId: string, cursor: string): Promise<void>;
  delete(childId: string): Promise<void>;
}

/** Ids of recently delivered facts per child, written synchronously (see DeliveredLog). */
export interface DeliveredIds {
  has(childId: string, eventId: string): boolean;
  claim(childId: string, eventId: string): void;
  release(childId: string, eventId: string): void;
}
