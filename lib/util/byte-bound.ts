/** A member of a {@link ByteBound}: what becomes of it when it is cut to make room. */
export interface BoundMember {
  cutForRoom(): void;
}

/**
 * Bytes its members hold together, kept to at most `max`: when a member's count takes them past it, the members
 * least recently seen to move (progress, as their owner counts it) are cut off until they fit again; never the one
 * being counted, so a single member larger than the bound goes on (its owner bounds it otherwise).
 */
export class ByteBound<M extends BoundMember = BoundMember> {
  /** Each member's bytes as last counted, in the order they last moved (least recent first). */
  private readonly bytes = new Map<M, number>();
  private total = 0;

  constructor(private readonly max: number) {}

  /** The bytes all members held at their last count. */
  get held(): number {
    return this.total;
  }

  /** Counts what `member` holds now; `moved`: it moved since the last count (it goes to the back of the line). None held takes it out. */
  count(member: M, bytes: number, moved: boolean): void {
    const before = this.bytes.get(member);
    if (before !== undefined) {
      this.total -= before;
      if (moved || bytes === 0) this.bytes.delete(member);
    }
    if (bytes === 0) return;
    this.bytes.set(member, bytes);
    this.total += bytes;
    if (this.total > this.max) this.makeRoom(member);
  }

  /** The member holds nothing any more (it ended, or was cut off). */
  forget(member: M): void {
    const before = this.bytes.get(member);
    if (before === undefined) return;
    this.total -= before;
    this.bytes.delete(member);
  }

  private makeRoom(counted: M): void {
    for (const member of this.bytes.keys()) {
      if (this.total <= this.max) return;
      if (member === counted) continue;
      this.forget(member);
      member.cutForRoom();
    }
  }
}
