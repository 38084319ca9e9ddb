import { quoted } from './bounded.js';
import { editsWithin, type EditBudget } from './edit-distance.js';

/** How many edits (insert, delete, substitute, swap of neighbours) apart a refused name may be from an allowed one to be its near miss. */
const MAX_EDITS = 2;

/** The shortest name {@link nearMiss} compares as a prefix: below it, a prefix says too little. */
const MIN_PREFIX = 4;

/** How loosely {@link nearMiss} matches: whether a prefix counts, and how many edits apart a near miss may be. */
export interface NearMissReach {
  readonly prefixes: boolean;
  readonly maxEdits: number;
}

/**
 * The allowed name a refused one was probably meant as (`readOnly` for `readOnlyHint`), for a refusal's hint, or
 * undefined. Names compare without case, `_` or `-`: the same name spelled otherwise, a prefix of an allowed name
 * (or an allowed name with a tail) when `reach` counts prefixes, then the nearest within `reach.maxEdits` edits.
 */
export function nearMiss(name: string, allowed: readonly string[], reach: NearMissReach = { prefixes: true, maxEdits: MAX_EDITS }): string | undefined {
  const wanted = folded(name);
  const candidates = allowed.map((candidate) => ({ candidate, form: folded(candidate) }));
  const same = candidates.find(({ form }) => form === wanted);
  if (same) return same.candidate;
  const prefix =
    reach.prefixes && candidates.find(({ form }) => (wanted.length >= MIN_PREFIX && form.startsWith(wanted)) || (form.length >= MIN_PREFIX && wanted.startsWith(form)));
  if (prefix) return prefix.candidate;
  let best: { candidate: string; edits: number } | undefined;
  for (const { candidate, form } of candidates) {
    const edits = editsWithin(wanted, form, reach.maxEdits);
    if (edits <= reach.maxEdits && (!best || edits < best.edits)) best = { candidate, edits };
  }
  return best?.candidate;
}

/** A name as near misses compare it: lower case, without `_` or `-`. */
export function folded(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** The longest name a caller sent that {@link NearMisses} looks at: past it, no allowed name is near. */
const CALLER_NAME_MAX = 256;

/**
 * What one refusal's near-miss lookups may spend together ({@link EditBudget}): past it they offer none, so a caller
 * cannot make a refusal costly whatever the server's names (about a third of a millisecond).
 */
export const NEAR_MISS_STEPS = 50_000;

/** Where a name a caller prefixed (a server's or client's namespace: `notes.search`, `mcp__notes__search`) may end. */
const PREFIXED = /^.*(?:\.|__|\/|:)(?=.)/s;

/**
 * The near misses of one closed list of allowed names, for refusals of what a caller sent (a tool, prompt, action,
 * argument or key name): built once per list, each lookup bounded by an {@link EditBudget}.
 */
export class NearMisses {
  /** Each folded form with the one allowed name it stands for, or null when several share it. */
  private readonly byForm = new Map<string, string | null>();
  /** Each allowed name with its folded form and, when `digitsKept`, the digits it spells. */
  private readonly forms: readonly { readonly candidate: string; readonly form: string; readonly digits?: string }[];

  /**
   * `digitsKept`: a near miss within edits must spell the same digits (a URI's: `logs/2026-01-02` is another day's
   * log than `logs/2026-01-01`, `users/1047` another user than `users/1041`, not a misspelling of it).
   */
  constructor(
    allowed: Iterable<string>,
    private readonly digitsKept = false,
  ) {
    const forms: { candidate: string; form: string; digits?: string }[] = [];
    for (const candidate of allowed) {
      const form = folded(candidate);
      this.byForm.set(form, this.byForm.has(form) ? null : candidate);
      forms.push(digitsKept ? { candidate, form, digits: form.replace(/\D/g, '') } : { candidate, form });
    }
    this.forms = forms;
  }

  /**
   * The one allowed name `name` was probably meant as, or undefined: the same name spelled otherwise (case, `_`,
   * `-`), or so after a prefix (`notes.search`); else the only nearest within one edit for a name of four to seven
   * characters, two from eight, starting with the same character (a shorter name is near everything, and a first
   * letter dropped reads as another word). A tie, or a spent `budget`, names none: a wrong guess would send the
   * caller astray.
   */
  meant(name: string, budget: EditBudget = { steps: NEAR_MISS_STEPS }): string | undefined {
    if (name.length > CALLER_NAME_MAX) return undefined;
    const wanted = folded(name);
    const same = this.byForm.has(wanted) ? this.byForm.get(wanted) : this.byForm.get(folded(name.replace(PREFIXED, '')));
    if (same !== undefined) return same ?? undefined;
    const limit = wanted.length >= 8 ? 2 : wanted.length >= 4 ? 1 : 0;
    if (limit === 0) return undefined;
    let best: string | undefined;
    let bestEdits = limit + 1;
    let tied = false;
    const digits = this.digitsKept ? wanted.replace(/\D/g, '') : undefined;
    for (const { candidate, form, digits: spelled } of this.forms) {
      if (form[0] !== wanted[0] || spelled !== digits) continue;
      const edits = editsWithin(wanted, form, limit, budget);
      if (budget.steps < 0) return undefined;
      if (edits < bestEdits) [best, bestEdits, tied] = [candidate, edits, false];
      else if (edits === bestEdits && edits <= limit) tied = true;
    }
    return tied ? undefined : best;
  }
}

/** Each list's near misses, built on its first refusal; a list is a map, record or array of names fixed once built. */
const nearMissesByList = new WeakMap<object, NearMisses>();

/**
 * The near misses of the names a map (an action map, a key node's properties) or a record (a vocabulary) holds as
 * keys, or the strings of an array (an `enum`).
 */
export function nearMissesOf(names: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>> | readonly unknown[]): NearMisses {
  let nearMisses = nearMissesByList.get(names);
  if (!nearMisses) {
    const listed = names instanceof Map ? names.keys() : Array.isArray(names) ? names.filter((name) => typeof name === 'string') : Object.keys(names);
    nearMissesByList.set(names, (nearMisses = new NearMisses(listed)));
  }
  return nearMisses;
}

/** One unknown name a refusal lists, with where it was sent. */
export interface UnknownName {
  readonly name: string;
  /** The near misses of the names allowed where it was sent. */
  readonly among: NearMisses;
  /** The object it was sent in: a name that object already holds is never offered. */
  readonly sentIn: object;
}

/**
 * The near miss offered for each unknown name one refusal lists, the lookups sharing `budget`: none that the object
 * it was sent in already holds, and none that two names sent in one object both nearly spell.
 */
export function offeredNearMisses(unknown: readonly UnknownName[], budget: EditBudget = { steps: NEAR_MISS_STEPS }): (string | undefined)[] {
  const meant = unknown.map(({ name, among, sentIn }) => {
    const near = among.meant(name, budget);
    return near !== undefined && !Object.hasOwn(sentIn, near) ? near : undefined;
  });
  const offers = new Map<object, Map<string, number>>();
  for (const [i, near] of meant.entries()) {
    if (near === undefined) continue;
    const inObject = offers.get(unknown[i]!.sentIn) ?? new Map<string, number>();
    offers.set(unknown[i]!.sentIn, inObject.set(near, (inObject.get(near) ?? 0) + 1));
  }
  return meant.map((near, i) => (near !== undefined && offers.get(unknown[i]!.sentIn)!.get(near) === 1 ? near : undefined));
}

/** The longest an offered name is quoted, as a refusal quotes a key (64 characters and its quotes). */
const OFFERED_QUOTED_MAX = 66;

/** The longest an offered URI or URI template is quoted, as a refusal quotes the one sent (200 characters and its quotes). */
export const OFFERED_URI_QUOTED_MAX = 202;

/**
 * What a refusal adds after a name the caller nearly spelled right (` (did you mean "firstName"?)`), else nothing;
 * quoted to `max` characters (a URI's are longer than a name's: cut, it could not be sent back).
 */
export function didYouMean(meant: string | undefined, max = OFFERED_QUOTED_MAX): string {
  return meant === undefined ? '' : ` (did you mean ${quoted(meant, max)}?)`;
}
