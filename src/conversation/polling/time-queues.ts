/** FIFO with O(1) shift (Array#shift moves every element). */
export class FifoQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** Entries due for a poll while one of `slots` is free: on-time ones first, `late` ones only in `lateSlots`. */
export function createReadyLanes<T>(slots: number, lateSlots: number, isLate: (item: T) => boolean) {
  const onTime = new FifoQueue<T>();
  const late = new FifoQueue<T>();
  const inFlight = { all: 0, late: 0 };
  const count = (item: T, by: number): void => {
    inFlight.all += by;
    if (isLate(item)) inFlight.late += by;
  };
  return {
    push: (item: T): void => (isLate(item) ? late : onTime).push(item),
    next(): T | undefined {
      if (inFlight.all >= slots) return undefined;
      return onTime.shift() ?? (inFlight.late < lateSlots ? late.shift() : undefined);
    },
    started: (item: T) => count(item, 1),
    finished: (item: T) => count(item, -1),
    inFlight: () => inFlight.all,
  };
}

type HeapNode<T> = { at: number; seq: number; item: T };

/** Binary min-heap on time; equal times come out in insertion order. Stale items are skipped lazily. */
export class TimeHeap<T> {
  private readonly nodes: HeapNode<T>[] = [];
  private seq = 0;

  push(at: number, item: T): void {
    this.nodes.push({ at, seq: this.seq++, item });
    let i = this.nodes.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  get size(): number {
    return this.nodes.length;
  }

  peekAt(): number {
    return this.nodes[0]?.at ?? Number.POSITIVE_INFINITY;
  }

  /** Removes and returns the earliest item when it is due at `now`. */
  popDue(now: number): T | undefined {
    const top = this.nodes[0];
    if (top === undefined || top.at > now) return undefined;
    this.pop();
    return top.item;
  }

  /** Drops items from the top while `isStale` says so, so `peekAt` is a live time. */
  discardTop(isStale: (item: T) => boolean): void {
    while (this.nodes[0] !== undefined && isStale(this.nodes[0].item)) this.pop();
  }

  private pop(): void {
    const last = this.nodes.pop();
    if (last === undefined || this.nodes.length === 0) return;
    this.nodes[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.nodes.length && this.less(left, smallest)) smallest = left;
      if (right < this.nodes.length && this.less(right, smallest)) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  private less(a: number, b: number): boolean {
    const x = this.nodes[a] as HeapNode<T>;
    const y = this.nodes[b] as HeapNode<T>;
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const x = this.nodes[a] as HeapNode<T>;
    this.nodes[a] = this.nodes[b] as HeapNode<T>;
    this.nodes[b] = x;
  }
}
