interface Queued<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Requests of one turn of the event loop applied together, one statement a round instead of one
 * round trip and one commit each. A statement touches a row once, so items on the same row (the same
 * `idOf`) go to successive rounds, in the order they came; concurrent statements of other nodes on
 * that row wait for its lock and see its new value.
 */
export class TurnRounds<T, R> {
  private queued: Array<Queued<T, R>> = [];

  constructor(
    private readonly idOf: (item: T) => string,
    private readonly applyRound: (items: T[]) => Promise<R[]>,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queued.push({ item, resolve, reject });
      if (this.queued.length === 1) setImmediate(() => void this.applyQueued());
    });
  }

  private async applyQueued(): Promise<void> {
    let left = this.queued;
    this.queued = [];
    while (left.length > 0) {
      const round: Array<Queued<T, R>> = [];
      const later: Array<Queued<T, R>> = [];
      const ids = new Set<string>();
      for (const queued of left) {
        const id = this.idOf(queued.item);
        if (ids.has(id)) later.push(queued);
        else {
          ids.add(id);
          round.push(queued);
        }
      }
      // Rows in one order on every node, so two nodes' rounds never wait for each other in a cycle.
      round.sort((a, b) => compare(this.idOf(a.item), this.idOf(b.item)));
      try {
        const results = await this.applyRound(round.map((queued) => queued.item));
        round.forEach((queued, i) => queued.resolve(results[i]!));
      } catch (error) {
        if (round.length === 1) round[0]!.reject(error);
        else await this.applyOneByOne(round);
      }
      left = later;
    }
  }

  /**
   * A failed round (say, a deadlock with another node's despite the order) changed nothing: its
   * items are applied again alone, so that only an item that fails by itself fails.
   */
  private async applyOneByOne(round: Array<Queued<T, R>>): Promise<void> {
    for (const queued of round) {
      try {
        const [result] = await this.applyRound([queued.item]);
        queued.resolve(result!);
      } catch (error) {
        queued.reject(error);
      }
    }
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
