import { Schema } from 'effect';

// Limits and character rules for the text people store (issue 16 item 7; the table in docs/api.md). The same
// checks run in the console's forms and again in the API and the identity server's registration.

export const TEXT_LIMITS = {
  personName: 100,
  email: 254,
  projectName: 64,
  organizationName: 64,
  billingAccountName: 100,
  taxIdValue: 64,
  addressLine: 200,
  city: 100,
  postalCode: 20,
  phone: 40,
} as const;

export const tooLongMessage = (max: number) => `Must be at most ${max} characters`;

// C0/C1 controls (tab and newlines included: these are one-line names).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// Direction embeddings, overrides and isolates, and the direction marks: they reorder the text shown after them.
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// Characters that draw nothing: format characters (zero-width space and joiners, word joiner, BOM, soft hyphen …),
// blank fillers that look like letters to the type checks (Hangul fillers, Braille blank), and spaces.
const INVISIBLE = /^[\p{Cf}\p{Zs}\u115f\u1160\u3164\uffa0\u2800\s]*$/u;

/**
 * The problem with a name someone typed, or null: control characters, text-direction characters, or nothing
 * visible at all. `label` starts the message ("The project name …").
 */
export function nameTextProblem(value: string, label: string): string | null {
  if (CONTROL.test(value)) return `${label} cannot contain control characters`;
  if (BIDI_CONTROL.test(value)) return `${label} cannot contain text-direction characters`;
  if (value !== '' && INVISIBLE.test(value)) return `${label} must contain visible characters`;
  return null;
}

/** A check for Schema.Trim/Schema.String pipes: maximum length and the character rules above. */
export function nameTextChecks(max: number, label: string) {
  return [
    Schema.isMaxLength(max, { message: tooLongMessage(max) }),
    Schema.makeFilter((s: string) => nameTextProblem(s, label) ?? true),
  ] as const;
}

/** Only a maximum (free text where direction characters are legitimate, e.g. an address line). */
export function maxTextCheck(max: number) {
  return Schema.isMaxLength(max, { message: tooLongMessage(max) });
}
