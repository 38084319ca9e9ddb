import type { ProviderWrapper } from './provider-classes.js';

/** A provider that declared a name (a tool's, say): its class and its wrapper, as module init found them. */
export interface DeclaringProvider {
  readonly metatype: abstract new (...args: never[]) => unknown;
  readonly wrapper: ProviderWrapper;
}

/**
 * Which two providers declared one name, and how to mend it: two classes (or two of one class name), or one class
 * with two instances, from two modules or under two tokens of one module.
 */
export function duplicateDeclaration(first: DeclaringProvider, second: DeclaringProvider): string {
  const [one, other] = [first.metatype.name, second.metatype.name];
  if (first.metatype !== second.metatype) return `${one === other ? `by two classes named ${one}` : `by classes ${one} and ${other}`}; give one of the tools another name`;
  if (first.wrapper.host !== second.wrapper.host)
    return `class ${one} is provided by two modules, ${moduleName(first.wrapper)} and ${moduleName(second.wrapper)} (two instances); provide it in one module and export it`;
  return `class ${one} is provided twice in ${moduleName(first.wrapper)}, under ${tokenName(first.wrapper)} and ${tokenName(second.wrapper)} (two instances); provide it under one token and alias the other with useExisting`;
}

function moduleName(wrapper: ProviderWrapper): string {
  return wrapper.host?.name ?? 'an unknown module';
}

function tokenName(wrapper: ProviderWrapper): string {
  const token: unknown = wrapper.token;
  return typeof token === 'function' ? `the class token ${token.name}` : typeof token === 'string' ? JSON.stringify(token) : String(token);
}
