// undici ships types for its index only. The files of its lib/ that undici.ts imports one by one
// are typed there, by their counterparts in the index's types.
declare module "undici/lib/*" {
  const moduleExports: unknown;
  export default moduleExports;
}
