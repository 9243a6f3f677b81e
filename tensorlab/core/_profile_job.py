def profile_job(session, params, cancelled, progress):
    import cProfile, pstats, io, time
    from tensorlab.core.language import parse_one
    pr = cProfile.Profile()
    out = []
    for code in params["codes"]:
        st = parse_one(code)
        pr.enable(); t = time.perf_counter(); r = session.execute(st); total = time.perf_counter() - t; pr.disable()
        out.append(f"{code}: total {total*1000:.1f} torch {r.seconds*1000:.1f}")
    s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(25)
    return "\n".join(out) + "\n" + s.getvalue()
