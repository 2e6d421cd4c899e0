/**
 * The value of a JSON data block the server put in the page it sent (decision 8): the signed-in
 * user, the screen's first answers. Undefined when the page has no such block, or one that is not
 * JSON.
 */
export function pageBlock(page: Document, id: string): unknown {
  const text = page.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
