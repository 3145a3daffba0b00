// Deterministic randomness: everything the demo household does is a pure function of the seed and
// of names (child, date, index), so two simulators with the same seed tell the same story.

/** A 32-bit hash of parts (FNV-1a over their text, then a final avalanche). */
export function hashParts(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  const text = parts.map(String).join("\u241f");
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return avalanche(h);
}

function avalanche(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small seeded generator (mulberry32): fast, and good enough for a believable household. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  static of(...parts: readonly (string | number)[]): Rng {
    return new Rng(hashParts(...parts));
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("cannot pick from nothing");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  uint32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }
}

/** A UUID-shaped (version 4 layout) identifier derived from parts, stable across runs. */
export function uuidFrom(...parts: readonly (string | number)[]): string {
  const rng = Rng.of("uuid", ...parts);
  const hex = Array.from({ length: 4 }, () => rng.uint32().toString(16).padStart(8, "0")).join("");
  const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A household token: the spec's prefix, then 40 hex characters derived from parts. */
export function tokenFrom(...parts: readonly (string | number)[]): string {
  const rng = Rng.of("token", ...parts);
  const hex = Array.from({ length: 5 }, () => rng.uint32().toString(16).padStart(8, "0")).join("");
  return `rf_api_${hex}`;
}
