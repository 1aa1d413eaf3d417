EventLoop kept despite the vendor rule.
