// The `message` of a field refusal (400 on spec 001's calls, 422 in the account area), kept apart from the error
// schemas so the console's HTTP client can recognise it without loading the schema library on first paint.
export const VALIDATION_ERROR_MESSAGE = 'Validation error';
