/**
 * The building blocks of the service's schemas (schemas.ts): the field kinds its
 * interface uses, and the strict and loose object factories one definition is built with.
 */
import { z } from 'zod';

/** An object whose inner structure the service interface does not show: anything goes. */
export const freeForm = () => z.record(z.string(), z.unknown());
/** A string→string map (labels, annotations, resource quantities). */
export const stringMap = () => z.record(z.string(), z.string());
/**
 * Any 8-4-4-4-12 hex id (z.guid), not only RFC 4122 variants. A malformed id
 * reads "Invalid UUID" as the contract names it; a missing one keeps zod's
 * "expected string, received undefined".
 */
export const uuid = () =>
  z.guid({ error: (issue) => (issue.code === 'invalid_format' ? 'Invalid UUID' : undefined) });
export const int = () => z.number().int();
/**
 * Accepts ISO 8601 date-time strings with an offset (`Z`, `+02:00`) or without
 * one (`2024-05-01T12:00:00.123456`), with any number of fractional digits.
 */
export const dateTime = () => z.iso.datetime({ offset: true, local: true });

export type ObjectConfig = z.core.$strict | z.core.$loose;
export type ObjectFactory<C extends ObjectConfig> = <S extends z.core.$ZodShape>(
  shape: S,
) => z.ZodObject<S, C>;

export const strictObject: ObjectFactory<z.core.$strict> = (shape) => z.strictObject(shape);
export const looseObject: ObjectFactory<z.core.$loose> = (shape) => z.looseObject(shape);
