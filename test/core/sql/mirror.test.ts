import { describe, expect, it } from 'vitest';
import { SQL_DATASETS, sqlColumnName, sqlTableName } from '../../../core/sandbox/sql/mirror.ts';

/** Airbnb columns in LoadDB order (spec §2.3). */
const AIRBNB_COLUMNS = [
  'id',
  'NAME',
  'host id',
  'host_identity_verified',
  'host name',
  'neighbourhood group',
  'neighbourhood',
  'lat',
  'long',
  'country',
  'country code',
  'instant_bookable',
  'cancellation_policy',
  'room type',
  'Construction year',
  'price',
  'service fee',
  'minimum nights',
  'number of reviews',
  'last review',
  'reviews per month',
  'review rate number',
  'calculated host listings count',
  'availability 365',
  'house_rules',
  'license',
];

describe('SQL mirror names', () => {
  it('names one table per dataset, without agenda', () => {
    expect(SQL_DATASETS.map(sqlTableName)).toEqual([
      'flights_data',
      'coffee_data',
      'airbnb_data',
      'yelp_data',
    ]);
  });

  it('renames airbnb columns: spaces to _, whole-name lat/long to latitude/longitude, no substring mangling', () => {
    expect(AIRBNB_COLUMNS.map((c) => sqlColumnName('airbnb', c))).toEqual([
      'id',
      'NAME',
      'host_id',
      'host_identity_verified',
      'host_name',
      'neighbourhood_group',
      'neighbourhood',
      'latitude',
      'longitude',
      'country',
      'country_code',
      'instant_bookable',
      'cancellation_policy',
      'room_type',
      'Construction_year',
      'price',
      'service_fee',
      'minimum_nights',
      'number_of_reviews',
      'last_review',
      'reviews_per_month',
      'review_rate_number',
      'calculated_host_listings_count',
      'availability_365',
      'house_rules',
      'license',
    ]);
  });

  it('keeps flights, coffee and yelp column names', () => {
    for (const [dataset, column] of [
      ['flights', 'Flight_Number_Marketing_Airline'],
      ['flights', 'DepTime'],
      ['coffee', 'Volume'],
      ['yelp', 'latitude'],
      ['yelp', 'long'],
    ] as const) {
      expect(sqlColumnName(dataset, column)).toBe(column);
    }
  });
});
