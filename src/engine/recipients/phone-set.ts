// The phones seen so far in a file, to find duplicates in constant memory per number: a
// Colombian national number (10 digits, 3… or 60…) fits in 32 bits, so the set is two typed
// array of (number, first row) pairs side by side (one cache line per probe) with open
// addressing: 8 bytes a slot, about 16 MB for two million numbers, instead of a Set of strings
// (~80 bytes each).
export class PhoneSet {
  /** slot k: [2k] the number (0 = free), [2k + 1] its first row. */
  private slots: Uint32Array;
  private size = 0;

  constructor(capacity = 1 << 16) {
    this.slots = new Uint32Array(capacity * 2);
  }

  /**
   * Adds a national number (1..2^32-1) first seen at `row`; answers 0 when it is new, else the
   * row where it was first seen.
   */
  add(national: number, row: number): number {
    const slots = this.slots;
    const capacity = slots.length >> 1;
    if ((this.size + 1) * 2 > capacity) { this.grow(); return this.add(national, row); }
    const mask = capacity - 1;
    let slot = (Math.imul(national, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const k = slots[slot * 2];
      if (k === 0) { slots[slot * 2] = national; slots[slot * 2 + 1] = row; this.size++; return 0; }
      if (k === national) return slots[slot * 2 + 1];
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.size = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0) this.add(old[i], old[i + 1]);
  }
}
