/**
 * A text a spreadsheet would not run: a cell that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return is a formula to Excel and its kin (OWASP, "CSV injection"), and players type
 * their own names and e-mail addresses. A leading apostrophe makes it text again. A missing
 * value is an empty cell.
 */
export function spreadsheetText(text: string | null): string {
  if (text === null) return '';
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
