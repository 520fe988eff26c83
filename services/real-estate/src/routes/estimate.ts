import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { estimate } from "../app/estimate.js";
import * as S from "../schemas.js";
import type { SnapshotReader } from "../store/snapshot.js";
import { modelReader } from "../store/valuation.js";
import { estimateView } from "./views.js";

export interface EstimateRoutesOptions {
  db: Queryable;
  /** The catalogue in memory, whose records with a living area are the comparables. */
  snapshot: SnapshotReader;
}

const METHOD =
  "comparable sales: the 12 most similar records among the 300 nearest (distance, living area, age, type), each adjusted to the subject with the market's hedonic model fitted at ingestion (log price on log area, bedrooms, bathrooms, age and sale month where known), averaged with weights 1/(0.2 + dissimilarity); never the subject's own records (its parcel or address, and any record within 25 m with its living area and year built), which are reported as last_sale; interval from leave-one-out calibration done the same way";

function isCalendarDay(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

export const estimateRoutes: FastifyPluginAsyncTypebox<EstimateRoutesOptions> = async (app, { db, snapshot }) => {
  const loadModel = modelReader(db);
  app.get(
    "/estimate",
    {
      schema: {
        summary: "Automated valuation",
        description: `Value of a property given by a catalogued id or address, or by its location and attributes. Method: ${METHOD}.`,
        querystring: S.EstimateQuery,
        response: { 200: successSchema(S.Estimate) },
      },
    },
    async (request) => {
      const query = request.query;
      if (query.date !== undefined && !isCalendarDay(query.date)) throw errors.validation("date", "must be a real calendar day, YYYY-MM-DD");
      const result = await estimate({ db, catalogue: await snapshot(), loadModel }, query);
      return ok(estimateView(result, METHOD, query.date !== undefined));
    },
  );
};
