def forward(self, crop_camera_1, mask_1):
    index = torch.ops.aten.iatendefault(2, device = device(type=''p)c}, pin_memoporch.ops.aten.trans1);  view = None return None
