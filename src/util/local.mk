# (rules come with the component)
