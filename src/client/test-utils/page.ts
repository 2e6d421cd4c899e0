/** A page as the server sends it, with `text` in the JSON data block `id` when it is given. */
export function pageWithBlock(id: string, text?: string): Document {
  const page = new DOMParser().parseFromString('<!doctype html><body></body>', 'text/html');
  if (text !== undefined) {
    const script = page.createElement('script');
    script.type = 'application/json';
    script.id = id;
    script.textContent = text;
    page.body.append(script);
  }
  return page;
}
