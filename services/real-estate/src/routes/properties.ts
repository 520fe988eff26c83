import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { pageInfo, pageOf, splitList } from "@apiplat/catalogue";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import type { Box } from "../domain/geo.js";
import type { PropertyFilters } from "../domain/property-index.js";
import * as S from "../schemas.js";
import { areaStats, findProperty } from "../store/properties.js";
import type { SnapshotReader } from "../store/snapshot.js";
import { propertyView } from "./views.js";

export interface PropertyRoutesOptions {
  db: Queryable;
  /** The catalogue in memory, which /search reads. */
  snapshot: SnapshotReader;
}

const DEFAULT_RADIUS_KM = 5;

/** "west,south,east,north" -> a box; 400 naming bbox otherwise. */
function parseBbox(text: string): Box {
  const parts = text.split(",").map((p) => Number(p.trim()));
  const [west, south, east, north] = parts;
  const valid =
    parts.length === 4 && parts.every(Number.isFinite) && Math.abs(south) <= 90 && Math.abs(north) <= 90 && Math.abs(west) <= 180 && Math.abs(east) <= 180;
  if (!valid) throw errors.validation("bbox", "must be four numbers west,south,east,north in degrees, such as -122.4,47.5,-122.2,47.7");
  if (south > north) throw errors.validation("bbox", "has its south edge above its north edge (order: west,south,east,north)");
  if (west > east) throw errors.validation("bbox", "has its west edge east of its east edge (boxes across the antimeridian are not supported)");
  return { minLat: south, maxLat: north, minLon: west, maxLon: east };
}

function filtersOf(query: S.SearchQuery): PropertyFilters {
  const hasPoint = query.lat !== undefined || query.lon !== undefined;
  if (hasPoint && (query.lat === undefined || query.lon === undefined))
    throw errors.validation(query.lat === undefined ? "lat" : "lon", "is required with the other coordinate (give lat and lon together)");
  if (query.radius_km !== undefined && !hasPoint) throw errors.validation("radius_km", "needs lat and lon");
  if (hasPoint && query.bbox !== undefined) throw errors.validation("bbox", "cannot be combined with lat/lon: give a point and radius, or a box");
  if (query.min_price !== undefined && query.max_price !== undefined && query.min_price > query.max_price)
    throw errors.validation("max_price", "must be at least min_price");
  if (query.min_sqft !== undefined && query.max_sqft !== undefined && query.min_sqft > query.max_sqft)
    throw errors.validation("max_sqft", "must be at least min_sqft");
  if (query.bedrooms_exact && query.bedrooms === undefined) throw errors.validation("bedrooms_exact", "needs bedrooms");
  if (query.sort === "distance" && !hasPoint) throw errors.validation("sort", "distance needs lat and lon");
  return {
    city: query.city?.trim(),
    state: query.state,
    zip: query.zip,
    near: hasPoint ? { latitude: query.lat!, longitude: query.lon!, radiusKm: query.radius_km ?? DEFAULT_RADIUS_KM } : undefined,
    box: query.bbox === undefined ? undefined : parseBbox(query.bbox),
    minPrice: query.min_price,
    maxPrice: query.max_price,
    bedrooms: query.bedrooms,
    bedroomsExact: query.bedrooms_exact,
    bathrooms: query.bathrooms,
    propertyTypes: query.property_type === undefined ? undefined : splitList(query.property_type.toLowerCase()),
    minSqft: query.min_sqft,
    maxSqft: query.max_sqft,
    statuses: query.status === undefined ? undefined : splitList(query.status.toLowerCase()),
    markets: query.market === undefined ? undefined : splitList(query.market.toLowerCase()),
  };
}

export const propertyRoutes: FastifyPluginAsyncTypebox<PropertyRoutesOptions> = async (app, { db, snapshot }) => {
  app.get(
    "/search",
    {
      schema: {
        summary: "Search properties",
        description:
          "Sales and listings by place (city, state, zip, a point and radius, or a box), price, rooms, area, type and status. Radius searches keep the records within the exact great-circle distance of the point.",
        querystring: S.SearchQuery,
        response: { 200: successSchema(S.PropertyPage) },
      },
    },
    async (request) => {
      const query = request.query;
      const filters = filtersOf(query);
      const page = pageOf(query);
      const sort = query.sort ?? (filters.near ? "distance" : "newest");
      const { total, properties, facets } = (await snapshot()).properties.search(filters, sort, page, query.facets === true);
      return ok({
        ...pageInfo(page, total),
        properties: properties.map(({ property, distance_km }) => propertyView(property, distance_km)),
        ...(facets ? { facets } : {}),
      });
    },
  );

  app.get(
    "/property/:id",
    {
      schema: {
        summary: "One property",
        description: "Every field the data has, the price per square foot and the ZIP code's median price per square foot.",
        params: S.PropertyId,
        response: { 200: successSchema(S.PropertyDetail) },
      },
    },
    async (request) => {
      const row = await findProperty(db, request.params.id);
      if (!row) throw errors.notFound(`No property has the id ${request.params.id}; ids come from /search.`);
      const area = row.zip ? await areaStats(db, row.zip, row.price_kind) : { zip: null, properties: 0, median_price_per_sqft: null };
      return ok({
        ...propertyView(row),
        area: {
          zip: area.zip,
          properties: area.properties,
          median_price_per_sqft: area.median_price_per_sqft === null ? null : Math.round(area.median_price_per_sqft * 100) / 100,
          median_days_on_market: null,
        },
      });
    },
  );
};
