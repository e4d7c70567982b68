// What the editors' completion and the label browser read label names and values from: the instance in the page,
// doubles in the tests. Answers are kept for 30 s per question (the gateway's own label cache keeps them as long), so
// typing does not send a read per keystroke.

export interface LabelSource {
  names: (selector?: string) => Promise<string[]>;
  values: (name: string, selector?: string) => Promise<string[]>;
}

const TTL_MS = 30_000;

export function cachedLabelSource(source: LabelSource, now: () => number = Date.now): LabelSource {
  const cache = new Map<string, { at: number; answer: Promise<string[]> }>();
  const remember = (key: string, load: () => Promise<string[]>) => {
    const hit = cache.get(key);
    if (hit && now() - hit.at < TTL_MS) return hit.answer;
    const answer = load();
    cache.set(key, { at: now(), answer });
    // A failed read is not kept: the next keystroke asks again.
    answer.catch(() => cache.delete(key));
    return answer;
  };
  return {
    names: (selector) => remember(`n|${selector ?? ''}`, () => source.names(selector)),
    values: (name, selector) => remember(`v|${name}|${selector ?? ''}`, () => source.values(name, selector)),
  };
}
