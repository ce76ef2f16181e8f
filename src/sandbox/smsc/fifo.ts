// A first-in first-out queue with O(1) push, shift and put-back-in-front: the SMSC's outboxes
// hold up to hundreds of thousands of receipts, where Array.shift would be O(n) each time.
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  /** Items put back in front (last put back comes out first). */
  private front: T[] = [];

  get length() {
    return this.items.length - this.head + this.front.length;
  }

  push(item: T) {
    this.items.push(item);
  }

  /** Puts an item back so it comes out next (a receipt whose session closed before its answer). */
  unshift(item: T) {
    this.front.push(item);
  }

  peek(): T | undefined {
    return this.front.length ? this.front[this.front.length - 1] : this.items[this.head];
  }

  shift(): T | undefined {
    if (this.front.length) return this.front.pop();
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined as T;
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
