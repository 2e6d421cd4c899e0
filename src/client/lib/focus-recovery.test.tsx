import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { pickFocusTarget, useFocusRecovery } from './focus-recovery.ts';

/** A list of items, each with a title link and an action button, as a challenge grid has. */
function List({ items, disabled = [] }: { items: string[]; disabled?: string[] }) {
  const focusRecovery = useFocusRecovery<HTMLDivElement>(pickFocusTarget);
  return (
    <div {...focusRecovery} tabIndex={-1} data-testid="container">
      {items.length === 0 ? (
        <button type="button">Create one</button>
      ) : (
        <ul>
          {items.map((item) => (
            <li key={item} data-focus-key={item}>
              <a href={`#${item}`} data-focus-target>
                {item}
              </a>
              <button type="button" disabled={disabled.includes(item)}>
                Accept {item}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p>Text to click on</p>
    </div>
  );
}

describe('useFocusRecovery', () => {
  it('moves focus from an item that left the list to the one that took its place', async () => {
    const { rerender } = render(<List items={['a', 'b', 'c']} />);
    screen.getByRole('button', { name: 'Accept b' }).focus();

    rerender(<List items={['a', 'c']} />);

    await waitFor(() => expect(screen.getByRole('link', { name: 'c' })).toHaveFocus());
  });

  it('moves focus to the new last item when the last one left, and to what is left when none is', async () => {
    const { rerender } = render(<List items={['a', 'b']} />);
    screen.getByRole('button', { name: 'Accept b' }).focus();
    rerender(<List items={['a']} />);
    await waitFor(() => expect(screen.getByRole('link', { name: 'a' })).toHaveFocus());

    rerender(<List items={[]} />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create one' })).toHaveFocus());
  });

  it("moves focus to the item's own target when its focused button is disabled", async () => {
    const { rerender } = render(<List items={['a', 'b']} />);
    screen.getByRole('button', { name: 'Accept b' }).focus();

    rerender(<List items={['a', 'b']} disabled={['b']} />);

    await waitFor(() => expect(screen.getByRole('link', { name: 'b' })).toHaveFocus());
  });

  it('leaves focus alone once the user has moved it elsewhere, by keyboard or by a click', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <>
        <List items={['a', 'b', 'c']} />
        <button type="button">Outside</button>
      </>,
    );
    screen.getByRole('button', { name: 'Accept b' }).focus();
    await user.click(screen.getByRole('button', { name: 'Outside' }));
    rerender(
      <>
        <List items={['a', 'c']} />
        <button type="button">Outside</button>
      </>,
    );
    // Let the mutation observer run: it must not pull focus back into the list.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.getByRole('button', { name: 'Outside' })).toHaveFocus();

    screen.getByRole('button', { name: 'Accept c' }).focus();
    await user.click(document.body);
    rerender(
      <>
        <List items={['a']} />
        <button type="button">Outside</button>
      </>,
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.body).toHaveFocus();
  });
});
