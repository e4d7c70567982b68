// The effect the editor dispatches when it runs the query (Shift+Enter). The completion (completion.ts, loaded with
// the language) closes its list and drops a pending request on it, so no list is left open over the results; this
// module is the only thing both share, so the opening does not have to load the completion to send it.
import { StateEffect } from '@codemirror/state';

export const queryRun = StateEffect.define<null>();
