/**
 * The value of the label `name`, or undefined when the set does not have it. Only the set's own keys count: a label
 * named `constructor` or `toString` that a stream lacks must read as missing, not as Object.prototype's member.
 */
export function ownLabel(labels: Record<string, string>, name: string): string | undefined {
  return Object.hasOwn(labels, name) ? labels[name] : undefined;
}
