// The spec's password rules, checked on the server whatever the form did. Messages are the spec's wording.
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*';

export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 8) problems.push('The new password must be at least 8 characters long.');
  if (!/[a-z]/.test(password)) problems.push('The new password must include at least 1 lower case letter.');
  if (!/[A-Z]/.test(password)) problems.push('The new password must include at least 1 upper case letter.');
  if (!/[0-9]/.test(password)) problems.push('The new password must include at least 1 number.');
  if (![...PASSWORD_SPECIAL_CHARACTERS].some((c) => password.includes(c))) {
    problems.push(`The new password must include at least 1 special character (${PASSWORD_SPECIAL_CHARACTERS}).`);
  }
  return problems;
}
