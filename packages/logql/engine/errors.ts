// The engine's errors, each with the HTTP status and message Loki answers with.

export class LogQLQueryError extends Error {
  constructor(
    message: string,
    readonly status: number = 400,
  ) {
    super(message);
  }
}

export const pipelineError = (labels: string, errorType: string) =>
  new LogQLQueryError(
    `pipeline error: '${errorType}' for series: '${labels}'.\n` +
      `Use a label filter to intentionally skip this error. (e.g | __error__!="${errorType}").\n` +
      'To skip all potential errors you can match empty errors.(e.g __error__="")\n' +
      'The label filter can also be specified after unwrap. (e.g | unwrap latency | __error__="" )\n',
  );

export const seriesLimitError = (limit: number) =>
  new LogQLQueryError(
    `maximum number of series (${limit}) reached for a single query; consider reducing query cardinality by adding more specific stream selectors, reducing the time range, or aggregating results with functions like sum(), count() or topk()`,
  );
