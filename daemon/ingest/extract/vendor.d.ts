// mammoth ships no type declarations; this is the part of its API kbox uses.
declare module "mammoth" {
  interface Result {
    value: string;
    messages: { type: string; message: string }[];
  }
  export function convertToHtml(input: { path: string } | { buffer: Buffer }): Promise<Result>;
  const mammoth: { convertToHtml: typeof convertToHtml };
  export default mammoth;
}
