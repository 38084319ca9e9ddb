/** The shapes of class member a member decorator can be applied to. */
export type MemberShape = 'method' | 'getter' | 'setter' | 'accessor' | 'property';

/** What a member decorator was applied to: the class, whether the member is static, and its shape. */
export interface DecoratedMember {
  /** The name of the class declaring the member. */
  readonly owner: string;
  readonly isStatic: boolean;
  readonly shape: MemberShape;
}

/**
 * Reads what TypeScript's (experimental) decorators pass a member decorator: the target is the class's prototype,
 * or for a static member the class itself; an accessor's descriptor has `get`/`set` and no `value`; a property
 * (an arrow function, say) gets no descriptor.
 */
export function decoratedMember(target: object, descriptor: PropertyDescriptor | undefined): DecoratedMember {
  const isStatic = typeof target === 'function';
  const owner = String((isStatic ? target : (target.constructor as { name?: unknown } | undefined))?.name ?? 'anonymous');
  return { owner, isStatic, shape: shapeOf(descriptor) };
}

/** The member as a sentence spells it: `a static method`, `a getter`, `an accessor`. */
export function spelledMember(member: DecoratedMember): string {
  return member.isStatic ? `a static ${member.shape}` : member.shape === 'accessor' ? 'an accessor' : `a ${member.shape}`;
}

function shapeOf(descriptor: PropertyDescriptor | undefined): MemberShape {
  if (descriptor === undefined) return 'property';
  if (descriptor.get || descriptor.set) return descriptor.get && descriptor.set ? 'accessor' : descriptor.get ? 'getter' : 'setter';
  return typeof descriptor.value === 'function' ? 'method' : 'property';
}
