/** Labels pets and work topics offline, by the keywords and examples given. */
export const LABELER = {
  name: "topics",
  on: 0,
  operations: [
    {
      label: {
        ident: "auto",
        labels: [
          { label: "pets", examples: ["cat", "kitten", "dog"] },
          { label: "work", examples: ["release", "hotfix", "office", "desk"] },
        ],
      },
    },
  ],
};
