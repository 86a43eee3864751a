// The changes made since the last record was taken: entity ids by kind, and kinds cleared whole.
export class PendingChanges {
  /** Replaced (not emptied) when taken: a taken record keeps its own. */
  ids = new Map<string, Set<string>>();
  clears = new Set<string>();
  private count = 0;

  get any(): boolean {
    return this.count > 0 || this.clears.size > 0;
  }

  changed(kind: string, id: string): void {
    let ids = this.ids.get(kind);
    if (!ids) this.ids.set(kind, (ids = new Set()));
    if (!ids.has(id)) {
      ids.add(id);
      this.count++;
    }
  }

  cleared(kind: string): void {
    const ids = this.ids.get(kind);
    if (ids) {
      this.count -= ids.size;
      this.ids.delete(kind);
    }
    this.clears.add(kind);
  }

  /** Hands the changes over and starts afresh. */
  take(): { ids: Map<string, Set<string>>; clears: Set<string> } {
    const taken = { ids: this.ids, clears: this.clears };
    this.ids = new Map();
    this.clears = new Set();
    this.count = 0;
    return taken;
  }
}
