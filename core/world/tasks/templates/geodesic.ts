/**
 * The "within 5 km" box of the airbnb and yelp radius questions (spec §7.6 H14, §7.8 H15/H17): the points
 * reached by travelling a distance due north, east, south and west along the WGS-84 ellipsoid (the original
 * used geopy's geodesic destination at bearings 0/90/180/270), giving latitude and longitude bounds.
 *
 * The destination point is Vincenty's direct formula with a fixed number of iterations (converged to the last
 * bit long before that for distances of a few kilometres). Gold answers use `geodesicBox`; reference plans run
 * `geodesicBoxPython`, the same arithmetic in the same order, in the Python sandbox (math module only), so both
 * produce the same doubles. Callers still resample draws with a row close to a bound (`nearBound`), so the
 * answer does not hinge on the last bit of a bound. `LatitudeIndex` finds the rows inside a box.
 */

const WGS84_A = 6378137.0;
const WGS84_F = 1 / 298.257223563;
const ITERATIONS = 10;

export interface Box {
  latMin: number;
  latMax: number;
  lonMin: number;
  lonMax: number;
}

/** The point `distance` metres from (lat, lon) at the given bearing (degrees clockwise from north). */
export function geodesicDestination(
  lat: number,
  lon: number,
  bearing: number,
  distance: number,
): [number, number] {
  const a = WGS84_A;
  const f = WGS84_F;
  const b = a * (1 - f);
  const deg = Math.PI / 180;
  const alpha1 = bearing * deg;
  const sinA1 = Math.sin(alpha1);
  const cosA1 = Math.cos(alpha1);
  const tanU1 = (1 - f) * Math.tan(lat * deg);
  const cosU1 = 1 / Math.sqrt(1 + tanU1 * tanU1);
  const sinU1 = tanU1 * cosU1;
  const sigma1 = Math.atan2(tanU1, cosA1);
  const sinAlpha = cosU1 * sinA1;
  const cosSqAlpha = 1 - sinAlpha * sinAlpha;
  const uSq = (cosSqAlpha * (a * a - b * b)) / (b * b);
  const bigA = 1 + (uSq / 16384) * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)));
  const bigB = (uSq / 1024) * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)));
  let sigma = distance / (b * bigA);
  for (let i = 0; i < ITERATIONS; i++) {
    const c2 = Math.cos(2 * sigma1 + sigma);
    const s = Math.sin(sigma);
    const c = Math.cos(sigma);
    const dSigma =
      bigB *
      s *
      (c2 + (bigB / 4) * (c * (-1 + 2 * c2 * c2) - (bigB / 6) * c2 * (-3 + 4 * s * s) * (-3 + 4 * c2 * c2)));
    sigma = distance / (b * bigA) + dSigma;
  }
  const c2 = Math.cos(2 * sigma1 + sigma);
  const s = Math.sin(sigma);
  const c = Math.cos(sigma);
  const x = sinU1 * s - cosU1 * c * cosA1;
  const lat2 = Math.atan2(sinU1 * c + cosU1 * s * cosA1, (1 - f) * Math.sqrt(sinAlpha * sinAlpha + x * x));
  const lambda = Math.atan2(s * sinA1, cosU1 * c - sinU1 * s * cosA1);
  const bigC = (f / 16) * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha));
  const bigL = lambda - (1 - bigC) * f * sinAlpha * (sigma + bigC * s * (c2 + bigC * c * (-1 + 2 * c2 * c2)));
  return [lat2 / deg, lon + bigL / deg];
}

/** The box bounded by the points `distance` metres north, south, east and west of (lat, lon). */
export function geodesicBox(lat: number, lon: number, distance: number): Box {
  return {
    latMin: geodesicDestination(lat, lon, 180, distance)[0],
    latMax: geodesicDestination(lat, lon, 0, distance)[0],
    lonMin: geodesicDestination(lat, lon, 270, distance)[1],
    lonMax: geodesicDestination(lat, lon, 90, distance)[1],
  };
}

/**
 * Python for the sandbox that prints `lat_min lat_max lon_min lon_max` (Python str() of each float) for the
 * box around (lat, lon); `lat` and `lon` are Python float literals as read from an observation.
 */
export function geodesicBoxPython(lat: string, lon: string, distance: number): string {
  return `import math

def destination(lat, lon, bearing, distance):
    a = 6378137.0
    f = 1 / 298.257223563
    b = a * (1 - f)
    deg = math.pi / 180
    alpha1 = bearing * deg
    sin_a1 = math.sin(alpha1)
    cos_a1 = math.cos(alpha1)
    tan_u1 = (1 - f) * math.tan(lat * deg)
    cos_u1 = 1 / math.sqrt(1 + tan_u1 * tan_u1)
    sin_u1 = tan_u1 * cos_u1
    sigma1 = math.atan2(tan_u1, cos_a1)
    sin_alpha = cos_u1 * sin_a1
    cos_sq_alpha = 1 - sin_alpha * sin_alpha
    u_sq = cos_sq_alpha * (a * a - b * b) / (b * b)
    big_a = 1 + u_sq / 16384 * (4096 + u_sq * (-768 + u_sq * (320 - 175 * u_sq)))
    big_b = u_sq / 1024 * (256 + u_sq * (-128 + u_sq * (74 - 47 * u_sq)))
    sigma = distance / (b * big_a)
    for _ in range(${ITERATIONS}):
        c2 = math.cos(2 * sigma1 + sigma)
        s = math.sin(sigma)
        c = math.cos(sigma)
        d_sigma = big_b * s * (c2 + big_b / 4 * (c * (-1 + 2 * c2 * c2) - big_b / 6 * c2 * (-3 + 4 * s * s) * (-3 + 4 * c2 * c2)))
        sigma = distance / (b * big_a) + d_sigma
    c2 = math.cos(2 * sigma1 + sigma)
    s = math.sin(sigma)
    c = math.cos(sigma)
    x = sin_u1 * s - cos_u1 * c * cos_a1
    lat2 = math.atan2(sin_u1 * c + cos_u1 * s * cos_a1, (1 - f) * math.sqrt(sin_alpha * sin_alpha + x * x))
    lam = math.atan2(s * sin_a1, cos_u1 * c - sin_u1 * s * cos_a1)
    big_c = f / 16 * cos_sq_alpha * (4 + f * (4 - 3 * cos_sq_alpha))
    big_l = lam - (1 - big_c) * f * sin_alpha * (sigma + big_c * s * (c2 + big_c * c * (-1 + 2 * c2 * c2)))
    return lat2 / deg, lon + big_l / deg

lat0 = ${lat}
lon0 = ${lon}
lat_min = destination(lat0, lon0, 180, ${distance})[0]
lat_max = destination(lat0, lon0, 0, ${distance})[0]
lon_min = destination(lat0, lon0, 270, ${distance})[1]
lon_max = destination(lat0, lon0, 90, ${distance})[1]
print(lat_min, lat_max, lon_min, lon_max)`;
}

/** The four bounds printed by `geodesicBoxPython`, as printed (an agent copies them into FilterDB). */
export function parseBoxOutput(output: string): string[] {
  const parts = output.trim().split(/\s+/);
  if (parts.length !== 4 || parts.some((x) => !Number.isFinite(Number(x))))
    throw new Error(`not a box: ${output}`);
  return parts;
}

/** Whether (lat, lon) is inside the box, bounds included (FilterDB's `>=`/`<=` on floats). */
export function inBox(box: Box, lat: number, lon: number): boolean {
  return lat >= box.latMin && lat <= box.latMax && lon >= box.lonMin && lon <= box.lonMax;
}

/** Whether a point lies within `eps` degrees of one of the box's bounds (its membership would be fragile). */
export function nearBound(box: Box, lat: number, lon: number, eps = 1e-9): boolean {
  const latIn = lat >= box.latMin - eps && lat <= box.latMax + eps;
  const lonIn = lon >= box.lonMin - eps && lon <= box.lonMax + eps;
  const onLat = Math.abs(lat - box.latMin) <= eps || Math.abs(lat - box.latMax) <= eps;
  const onLon = Math.abs(lon - box.lonMin) <= eps || Math.abs(lon - box.lonMax) <= eps;
  return (onLat && lonIn) || (onLon && latIn);
}

/** FilterDB sub-conditions selecting the box [latMin, latMax, lonMin, lonMax] on the given columns. */
export function boxConditions(bounds: readonly string[], latColumn: string, lonColumn: string): string {
  const [latMin, latMax, lonMin, lonMax] = bounds;
  return `${latColumn}>=${latMin}, ${latColumn}<=${latMax}, ${lonColumn}>=${lonMin}, ${lonColumn}<=${lonMax}`;
}

/** Rows sorted by latitude, for finding the rows inside a box without scanning the whole table. */
export class LatitudeIndex {
  private readonly rows: Int32Array;
  private readonly lats: Float64Array;
  private readonly lons: Float64Array;

  /** `rows` (default: all) are indices into `lats`/`lons`. */
  constructor(lats: readonly number[], lons: readonly number[], rows?: readonly number[]) {
    const ids = Int32Array.from(rows ?? lats.keys());
    ids.sort((a, b) => (lats[a] as number) - (lats[b] as number) || a - b);
    this.rows = ids;
    this.lats = Float64Array.from(ids, (r) => lats[r] as number);
    this.lons = Float64Array.from(ids, (r) => lons[r] as number);
  }

  /**
   * The rows inside the box (bounds included), in row order; null when a row lies within `eps` of a bound
   * (see `nearBound`) or more than `cap` rows are inside.
   */
  inside(box: Box, cap = Number.POSITIVE_INFINITY, eps = 1e-9): number[] | null {
    const out: number[] = [];
    let k = lowerBound(this.lats, box.latMin - 2 * eps);
    for (; k < this.lats.length && (this.lats[k] as number) <= box.latMax + 2 * eps; k++) {
      const lat = this.lats[k] as number;
      const lon = this.lons[k] as number;
      if (nearBound(box, lat, lon, eps)) return null;
      if (inBox(box, lat, lon)) {
        out.push(this.rows[k] as number);
        if (out.length > cap) return null;
      }
    }
    return out.sort((a, b) => a - b);
  }
}

function lowerBound(xs: Float64Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
