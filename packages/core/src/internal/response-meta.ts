const META = Symbol("api-clients.response-meta");

/** What the transport remembers about the request that produced a response. */
export interface ResponseMeta {
  readonly method: string;
  readonly url: string;
}

/** Attaches request facts to a response, so helpers reading it later can name the request in errors. */
export function setResponseMeta(response: Response, meta: ResponseMeta): void {
  (response as unknown as Record<symbol, ResponseMeta>)[META] = meta;
}

/** Reads what {@link setResponseMeta} attached, if anything. */
export function getResponseMeta(response: Response): ResponseMeta | undefined {
  return (response as unknown as Record<symbol, ResponseMeta | undefined>)[META];
}
