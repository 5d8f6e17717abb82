#!/usr/bin/env python3
"""Probability density of the normal forces f/<f> on a log-linear plot.

Each file has a header line and one row per bin with the columns
f_lo,f_hi,pdf,count (bin edges in units of the mean force <f>, the density
there, the number of contacts in the bin; count is optional). The density
is drawn at the bin centres; above the mean, the exponential
pdf = A exp(-beta f/<f>) is fitted to the bins with f_lo >= 1 and a density
> 0 (least squares on ln pdf, each bin weighted by its count, whose Poisson
error makes the variance of ln pdf 1/count), drawn dashed and printed:

  <file>: exponential fit above the mean: A = <A>, beta = <beta> (<n> bins)

Several files are overlaid, each with its fit.

  python3 tools/plot_force_pdf.py out/force_pdf.csv -o force_pdf.png
"""
import os

import moreau_plots as mp
from moreau_plots import fail, np, plt


def read_pdf(path):
    names, data = mp.read_csv(path)
    mp.require_columns(path, names, ["f_lo", "f_hi", "pdf"])
    lo, hi, pdf = (data[:, names.index(c)] for c in ("f_lo", "f_hi", "pdf"))
    count = data[:, names.index("count")] if "count" in names else np.ones_like(pdf)
    if not np.all(np.isfinite(data)) or np.any(hi <= lo) or np.any(pdf < 0) or np.any(count < 0):
        fail(f"{path}: a bin has f_hi <= f_lo, a negative density or count, or a value that is not finite")
    if not np.any(pdf > 0):
        fail(f"{path}: no bin has a density > 0")
    return lo, hi, pdf, count


def exponential_fit(lo, hi, pdf, count):
    """(A, beta, bins used) of pdf = A exp(-beta f) over the bins above the
    mean, or None with fewer than 2 such bins."""
    use = (lo >= 1) & (pdf > 0) & (count > 0)
    if use.sum() < 2:
        return None
    f = 0.5 * (lo + hi)[use]
    slope, intercept = np.polyfit(f, np.log(pdf[use]), 1, w=np.sqrt(count[use]))
    return np.exp(intercept), -slope, int(use.sum())


def main():
    parser = mp.Parser(__doc__)
    parser.add_argument("pdfs", nargs="+", help="force PDF CSV files")
    parser.add_argument("-o", dest="output", help="PNG to write (default: next to a single file, with .png; "
                        "force_pdf.png beside the first of several)")
    args = parser.parse_args()
    data = [read_pdf(p) for p in args.pdfs]
    fig, ax = plt.subplots(figsize=(6.5, 4.8))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (path, (lo, hi, pdf, count)) in enumerate(zip(args.pdfs, data)):
        colour = colours[k % len(colours)]
        centre, shown = 0.5 * (lo + hi), pdf > 0
        ax.plot(centre[shown], pdf[shown], "o", ms=4, color=colour, label=os.path.basename(path))
        fit = exponential_fit(lo, hi, pdf, count)
        if fit is None:
            print(f"{path}: exponential fit above the mean: fewer than 2 bins with f_lo >= 1 and pdf > 0")
            continue
        a, beta, n = fit
        print(f"{path}: exponential fit above the mean: A = {a:.8g}, beta = {beta:.8g} ({n} bins)")
        f = np.linspace(1.0, hi.max(), 100)
        ax.plot(f, a * np.exp(-beta * f), "--", lw=1.0, color=colour, label=f"{a:.3g} exp(-{beta:.3g} f/<f>)")
    ax.set_yscale("log")
    ax.axvline(1.0, color="0.6", lw=0.8, ls=":")
    ax.set_xlabel("f / <f>")
    ax.set_ylabel("P(f / <f>)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    fig.tight_layout()
    mp.save(fig, args.output or mp.default_png(args.pdfs, "force_pdf.png"))


if __name__ == "__main__":
    main()
