/**
 * A stand-in for XMLHttpRequest at the network boundary, for the screenshot upload. The test plays
 * the server: it reports upload progress, then answers or fails the request.
 */
export class FakeXMLHttpRequest {
  static instances: FakeXMLHttpRequest[] = [];

  static latest(): FakeXMLHttpRequest {
    const request = FakeXMLHttpRequest.instances.at(-1);
    if (!request) throw new Error('no XMLHttpRequest has been created');
    return request;
  }

  method = '';
  url = '';
  body: unknown = null;
  withCredentials = false;
  readonly headers: Record<string, string> = {};
  status = 0;
  responseText = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };

  constructor() {
    FakeXMLHttpRequest.instances.push(this);
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  send(body: unknown): void {
    this.body = body;
  }

  /** The browser reports `loaded` of `total` bytes sent. */
  progress(loaded: number, total: number): void {
    this.upload.onprogress?.(
      new ProgressEvent('progress', { lengthComputable: true, loaded, total }),
    );
  }

  respond(status: number, body: unknown): void {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }

  failNetwork(): void {
    this.onerror?.();
  }
}
