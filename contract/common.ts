import { Result, Schema, SchemaIssue } from 'effect';

// Shared building blocks of the wire contract. The console and the API decode with the same schemas, so a rule and
// its message are written once. Nothing here may import node-only modules: this file ships in the browser bundle.

/** Field name → messages, as shown under form fields and returned by the API in a 422 `details`. */
export type FieldErrors = Record<string, string[]>;

/** Key used for issues that belong to the whole input rather than one field. */
export const FORM_ERROR_KEY = '_form';

const formatter = SchemaIssue.makeFormatterStandardSchemaV1();

/** Turns a Schema parse failure into `{ field: [messages] }` (nested paths joined with dots). */
export function toFieldErrors(issue: SchemaIssue.Issue): FieldErrors {
  const errors: FieldErrors = {};
  for (const entry of formatter(issue).issues) {
    const key = entry.path && entry.path.length > 0 ? entry.path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.') : FORM_ERROR_KEY;
    const list = (errors[key] ??= []);
    if (!list.includes(entry.message)) list.push(entry.message);
  }
  return errors;
}

/**
 * True when the failure is about the shape of the input (wrong JSON type, unknown literal, unparseable number)
 * rather than a rule of the product (too short, missing, bad pattern). The API answers the first with 400 and the
 * second with 422, so a client bug and a user's typo are told apart.
 */
export function isShapeFailure(issue: SchemaIssue.Issue): boolean {
  switch (issue._tag) {
    case 'InvalidType':
    case 'OneOf':
    case 'UnexpectedKey':
    case 'Encoding':
      return true;
    case 'AnyOf':
      return issue.issues.length === 0 || issue.issues.some(isShapeFailure);
    case 'Pointer':
    case 'Filter':
      return isShapeFailure(issue.issue);
    case 'Composite':
      return issue.issues.some(isShapeFailure);
    default:
      return false;
  }
}

export type DecodeOutcome<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly shape: boolean; readonly errors: FieldErrors };

/** Decodes unknown input with every error reported (a form shows all of its field errors at once). */
export function decodeInput<S extends Schema.Top & { readonly DecodingServices: never }>(
  schema: S,
  input: unknown,
): DecodeOutcome<S['Type']> {
  const result = Schema.decodeUnknownResult(schema as never)(input, { errors: 'all' }) as Result.Result<S['Type'], Schema.SchemaError>;
  if (Result.isSuccess(result)) return { ok: true, value: result.success };
  const issue = result.failure.issue;
  return { ok: false, shape: isShapeFailure(issue), errors: toFieldErrors(issue) };
}

/** A required string that is present but may be blank: the rule (not the type check) reports blanks. */
export const requiredString = (missing: string) =>
  Schema.String.pipe(Schema.check(Schema.isMinLength(1, { message: missing }))).annotateKey({ messageMissingKey: missing });

/** A positive integer id; in query strings it arrives as text. */
// Ids are 32-bit database identities; anything outside that range cannot name a row.
const MAX_ID = 2_147_483_647;
export const Id = Schema.Int.pipe(
  Schema.check(Schema.isGreaterThan(0, { message: 'Must be a positive id' }), Schema.isLessThanOrEqualTo(MAX_ID, { message: 'Unknown id' })),
);
export const IdFromString = Schema.NumberFromString.pipe(
  Schema.check(
    Schema.isInt({ message: 'Must be a whole number' }),
    Schema.isGreaterThan(0, { message: 'Must be a positive id' }),
    Schema.isLessThanOrEqualTo(MAX_ID, { message: 'Unknown id' }),
  ),
);

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user id (UUID); blank or malformed ids report the given message, as a form with no user chosen would. */
export const userId = (message: string) =>
  Schema.String.pipe(Schema.check(Schema.makeFilter((s: string) => UUID_PATTERN.test(s) || message))).annotateKey({
    messageMissingKey: message,
  });

/** `?project_id=` on the project-scoped reads. */
export const ProjectIdQuery = Schema.Struct({
  project_id: IdFromString.annotateKey({ messageMissingKey: 'The project id is missing' }),
});
export type ProjectIdQuery = typeof ProjectIdQuery.Type;

/** A person as the member lists show them (project users; organization users add their role flags). */
export const PersonFields = {
  id: Schema.String,
  given_name: Schema.String,
  family_name: Schema.String,
  email: Schema.String,
};

/** Every successful mutation carries a human success text, shown as a toast. */
export const MessageResponse = Schema.Struct({ message: Schema.String });
export type MessageResponse = typeof MessageResponse.Type;

/** Timestamps travel as ISO-8601 strings. */
export const Timestamp = Schema.String;
