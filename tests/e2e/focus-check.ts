import type { ElementHandle, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Keyboard-only driving with a check at every step that the focused element can be seen (WCAG
 * 2.4.7 Focus Visible, 2.4.11 Focus Not Obscured): it has a focus indicator (it looks different
 * once focus has left it) and nothing, a fixed bar above all, covers it.
 */

interface FocusState {
  /** How the focused element reads in a failure message: its tag and text or name. */
  name: string;
  /** What is wrong with how it can be seen; empty when it can be. */
  problems: string[];
}

/**
 * Runs in the page: an element's outline, shadow, background and border, as one string, as they
 * are once its transitions have run their course. A transition's middle depends on when the page
 * last drew a frame, which a busy machine delays: read mid-way, a control that has just lost the
 * focus can look like one caught just after gaining it. Finishing them first reads where they go.
 */
function lookOf(element: Element): { look: string; focused: boolean; connected: boolean } {
  for (const animation of element.getAnimations()) {
    if (animation instanceof CSSTransition) animation.finish();
  }
  const style = getComputedStyle(element);
  const look = [
    style.outlineStyle,
    style.outlineWidth,
    style.outlineColor,
    style.boxShadow,
    style.backgroundColor,
    style.borderColor,
  ].join(' | ');
  return { look, focused: element === document.activeElement, connected: element.isConnected };
}

/** Runs in the page: where the focused element is, and whatever hides any part of it. */
function inspectFocus(): FocusState {
  const describe = (element: Element | null): string => {
    if (!element) return 'nothing (off screen)';
    const text = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
    const id = element.id ? `#${element.id}` : '';
    return `<${element.tagName.toLowerCase()}${id}> "${text.replace(/\s+/g, ' ').slice(0, 40)}"`;
  };
  const element = document.activeElement;
  if (!(element instanceof HTMLElement) || element === document.body) {
    return { name: 'the page body', problems: ['focus fell to the page body'] };
  }
  const style = getComputedStyle(element);
  const problems: string[] = [];
  const rect = element.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  const fitsViewport = rect.width <= width && rect.height <= height;
  const left = Math.max(rect.left, 0);
  const right = Math.min(rect.right, width);
  const top = Math.max(rect.top, 0);
  const bottom = Math.min(rect.bottom, height);
  if (right <= left || bottom <= top) {
    problems.push(`it is outside the viewport (top ${Math.round(rect.top)} of ${height})`);
    return { name: describe(element), problems };
  }
  if (
    fitsViewport &&
    // A pixel of slack: layout works in fractions of one.
    (rect.left < -1 || rect.top < -1 || rect.right > width + 1 || rect.bottom > height + 1)
  ) {
    problems.push(
      `it is partly outside the viewport (${Math.round(rect.top)}–${Math.round(rect.bottom)} of ${height})`,
    );
  }
  // The centre, and for an element that fits the viewport its four corners, moved inside the
  // rounding of its border so that a pill's corner is not taken for something else's.
  const points: Array<[string, number, number]> = [
    ['centre', (left + right) / 2, (top + bottom) / 2],
  ];
  if (fitsViewport) {
    const inset = (radius: string) =>
      Math.max(1, Math.min(parseFloat(radius) || 0, rect.width / 2, rect.height / 2) * 0.3 + 1);
    const topLeft = inset(style.borderTopLeftRadius);
    const topRight = inset(style.borderTopRightRadius);
    const bottomLeft = inset(style.borderBottomLeftRadius);
    const bottomRight = inset(style.borderBottomRightRadius);
    points.push(
      ['top left corner', rect.left + topLeft, rect.top + topLeft],
      ['top right corner', rect.right - topRight, rect.top + topRight],
      ['bottom left corner', rect.left + bottomLeft, rect.bottom - bottomLeft],
      ['bottom right corner', rect.right - bottomRight, rect.bottom - bottomRight],
    );
  }
  // A link whose text wraps is one box per line: the middle of the box around them all can be
  // beside the text, on the heading that holds it. Each line's middle is checked instead.
  const lines = [...element.getClientRects()].filter((line) => line.width > 0 && line.height > 0);
  if (lines.length > 1) {
    points.splice(
      0,
      points.length,
      ...lines.map((line, index): [string, number, number] => [
        `line ${index + 1}`,
        (Math.max(line.left, 0) + Math.min(line.right, width)) / 2,
        (Math.max(line.top, 0) + Math.min(line.bottom, height)) / 2,
      ]),
    );
  }
  for (const [where, x, y] of points) {
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === element || element.contains(hit))) continue;
    problems.push(`its ${where} is covered by ${describe(hit)}`);
  }
  return { name: describe(element), problems };
}

/**
 * Follows the focus through a keyboard session and checks each element it lands on. The focus
 * indicator is judged when focus moves on: the element must then look different from how it
 * looked focused.
 */
export class FocusWalker {
  private previous: { handle: ElementHandle; name: string; look: string; step: string } | null =
    null;

  constructor(
    private readonly page: Page,
    private readonly where: string,
  ) {}

  /**
   * Checks the element that has focus now; `step` says how it got there, for failures. A dialog
   * that is still opening can briefly take the pointer from what it holds, so the check waits up
   * to two seconds for the state to settle before it fails.
   */
  async check(step: string): Promise<void> {
    await this.checkPreviousIndicator();
    // The focused element's look is recorded only while it still has the focus: an app that
    // moves focus by itself (a list re-rendered, a dialog settling) gets the new one checked.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      let state: FocusState = { name: '', problems: [] };
      await expect
        .poll(
          async () => {
            state = await this.page.evaluate(inspectFocus);
            return state.problems.map((problem) => `${state.name}: ${problem}`);
          },
          { message: `${this.where}, after ${step}`, timeout: 2_000 },
        )
        .toEqual([]);
      const handle = await this.page.evaluateHandle(() => document.activeElement);
      const element = handle.asElement();
      if (!element) throw new Error('no focused element');
      const { look, focused } = await element.evaluate(lookOf);
      if (focused) {
        this.previous = { handle: element, name: state.name, look, step };
        return;
      }
      await element.dispose();
    }
    throw new Error(`${this.where}, after ${step}: the focus kept moving by itself`);
  }

  /** Presses a key and checks where focus went. */
  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
    await this.check(key);
  }

  /** Types into the focused field (typing moves no focus). */
  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  /** Presses Tab (or Shift+Tab) until `target` has focus, checking every element on the way. */
  async tabTo(target: Locator, { backwards = false, maxSteps = 80 } = {}): Promise<void> {
    await target.waitFor();
    for (let step = 0; step < maxSteps; step += 1) {
      if (await isFocused(target)) return;
      await this.press(backwards ? 'Shift+Tab' : 'Tab');
    }
    throw new Error(`${this.where}: ${String(target)} not reached in ${maxSteps} key presses`);
  }

  /**
   * Tabs through every control of the page, from the top to the end and back again, checking
   * each one (Shift+Tab is where a sticky top bar hides things).
   */
  async tabThroughPage(maxSteps = 250): Promise<number> {
    await this.page.evaluate(() => {
      window.scrollTo(0, 0);
      (document.activeElement as HTMLElement | null)?.blur();
    });
    this.previous = null;
    let steps = 0;
    for (const key of ['Tab', 'Shift+Tab']) {
      const seen = new Set<string>();
      for (;;) {
        await this.page.keyboard.press(key);
        const atEnd = await this.page.evaluate(
          () => document.activeElement === document.body || document.activeElement === null,
        );
        if (atEnd) break;
        // Marks each element reached, so that a page whose focus cycles is walked once.
        const id = await this.page.evaluate(() => {
          const element = document.activeElement as HTMLElement;
          element.dataset.e2eFocusId ??= String(
            document.querySelectorAll('[data-e2e-focus-id]').length,
          );
          return element.dataset.e2eFocusId;
        });
        if (seen.has(id)) break;
        seen.add(id);
        await this.check(key);
        steps += 1;
        if (steps > maxSteps) throw new Error(`${this.where}: more than ${maxSteps} tab stops`);
      }
    }
    return steps;
  }

  private async checkPreviousIndicator(): Promise<void> {
    if (!this.previous) return;
    const { handle, name, look, step } = this.previous;
    this.previous = null;
    const now = await handle.evaluate(lookOf);
    await handle.dispose();
    if (!now.connected || now.focused) return;
    expect(
      now.look,
      `${this.where}, after ${step}: ${name} looks the same focused and unfocused`,
    ).not.toBe(look);
  }
}

export async function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement);
}
