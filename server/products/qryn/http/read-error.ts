import { IngestError } from '../ingest/batch';

/** A read the client must change (an answer 400 unless it says otherwise). */
export class ReadError extends IngestError {}
