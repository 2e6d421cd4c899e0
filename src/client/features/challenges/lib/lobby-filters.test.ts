import { describe, expect, it } from 'vitest';
import { FILTER_MESSAGES } from '#shared/contracts/challenges.ts';
import {
  hasLobbyFilters,
  NO_FILTERS,
  readLobbyFilters,
  stakeRangeError,
  writeLobbyFilters,
} from './lobby-filters.ts';

describe('the lobby filters in the address', () => {
  it('reads back what it wrote, so a shared link opens the same view', () => {
    const filters = {
      game: 'EA FC 26',
      console: 'PlayStation',
      minAmount: '10',
      maxAmount: '25.50',
      sort: 'amount_desc' as const,
    };
    const query = writeLobbyFilters(filters);
    expect(query).toBe(
      'game=EA+FC+26&console=PlayStation&minAmount=10&maxAmount=25.50&sort=amount_desc',
    );
    expect(readLobbyFilters(`?${query}`)).toEqual(filters);
  });

  it('writes nothing for the lobby without filters', () => {
    expect(writeLobbyFilters(NO_FILTERS)).toBe('');
    expect(writeLobbyFilters({ ...NO_FILTERS, game: '   ' })).toBe('');
    expect(hasLobbyFilters(NO_FILTERS)).toBe(false);
    expect(hasLobbyFilters({ ...NO_FILTERS, sort: 'amount_asc' })).toBe(true);
  });

  it('leaves out what the lobby does not know instead of refusing the link', () => {
    expect(
      readLobbyFilters('console=Atari&sort=cheapest&minAmount=ten&maxAmount=1.234&game=%20Halo%20'),
    ).toEqual({ ...NO_FILTERS, game: 'Halo' });
    // Upside down, a range would find nothing: the lower bound stays.
    expect(readLobbyFilters('minAmount=50&maxAmount=20')).toEqual({
      ...NO_FILTERS,
      minAmount: '50',
    });
  });

  it('says why a stake range cannot be asked for, in the API’s words', () => {
    expect(stakeRangeError({ minAmount: '5', maxAmount: '' })).toBeNull();
    expect(stakeRangeError({ minAmount: 'abc', maxAmount: '' })).toEqual({
      field: 'minAmount',
      message: FILTER_MESSAGES.minAmount,
    });
    expect(stakeRangeError({ minAmount: '', maxAmount: '-3' })).toEqual({
      field: 'maxAmount',
      message: FILTER_MESSAGES.maxAmount,
    });
    expect(stakeRangeError({ minAmount: '30', maxAmount: '20.99' })).toEqual({
      field: 'maxAmount',
      message: FILTER_MESSAGES.range,
    });
  });
});
