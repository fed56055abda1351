import { lookup as dnsLookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isPrivateAddress, isPrivateHost } from "./private-address";

/** The merchant's URL reaches this machine or a private network, which is not allowed (SSRF). */
export class PrivateAddressError extends Error {
  constructor(host: string) {
    super(`${host} is on this machine or a private network (ALLOW_PRIVATE_URLS)`);
    this.name = "PrivateAddressError";
  }
}

type Resolve = (
  host: string,
  callback: (err: NodeJS.ErrnoException | null, addresses: { address: string; family: number }[]) => void,
) => void;
const systemResolve: Resolve = (host, callback) => dnsLookup(host, { all: true }, callback);

export interface MerchantPost {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** How names become addresses (the system's resolver; a test's own). */
  resolve?: Resolve;
}

/**
 * POSTs to a merchant URL and answers its HTTP status; redirects are not followed. Unless private
 * addresses are allowed, the connection goes only to a public address: the name is resolved here
 * and the socket connects to the address that was checked, so a name that resolves to a public
 * address for the check and a private one for the connection (DNS rebinding) gets nowhere.
 */
export function postToMerchant(url: string, opts: MerchantPost): Promise<number> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (!opts.allowPrivate && isPrivateHost(host)) return Promise.reject(new PrivateAddressError(host));
  const resolve = opts.resolve ?? systemResolve;
  const lookup: LookupFunction = (name, options, callback) => {
    resolve(name, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const usable = opts.allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      const first = usable[0];
      if (!first) return callback(new PrivateAddressError(name), "", 0);
      if (options.all) (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
      else callback(null, first.address, first.family);
    });
  };
  return new Promise((done, fail) => {
    const request = (target.protocol === "https:" ? https : http).request(target, {
      method: "POST",
      headers: { ...opts.headers, "Content-Length": String(Buffer.byteLength(opts.body)) },
      // An address literal is connected to without a lookup; it was judged above.
      ...(isIP(host) ? {} : { lookup }),
    });
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    request.on("response", (res) => {
      res.resume();
      clearTimeout(timer);
      done(res.statusCode ?? 0);
    });
    request.on("error", (err) => {
      clearTimeout(timer);
      fail(err);
    });
    request.end(opts.body);
  });
}
